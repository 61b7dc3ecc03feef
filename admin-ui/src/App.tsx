/**
 * The react-admin console at `/admin`, talking ra-data-simple-rest to `/admin/api`.
 * Browser history (not react-admin's default hash router): the server answers every
 * `/admin/<path>` with the same index.html, so deep links work.
 * Resources come from `resources.ts`; the time-travel page is a custom route. Should no
 * resource be registered, react-admin calls the app "empty" and renders `ready`; `EmptyShell`
 * shows the dashboard inside the normal layout then.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { useMemo } from 'react';
import { Admin, type AuthProvider, CustomRoutes, type DataProvider, Resource } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { createAuthProvider } from './authProvider';
import { Dashboard } from './Dashboard';
import { createDataProvider } from './dataProvider';
import { type AdminLocale, type Catalogue, createI18nProvider } from './i18n';
import { ConsoleLayout, theme } from './layout';
import { RESOURCES } from './resources';
import { TimeTravel } from './TimeTravel';

export const BASENAME = '/admin';

/**
 * Styles go in `<style>` elements that carry the nonce the server put in
 * `<meta name="csp-nonce">`: the Content-Security-Policy allows no other inline style.
 */
function styleCache() {
  const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? undefined;
  return createCache({ key: 'vm', nonce });
}

function EmptyShell() {
  return (
    <ConsoleLayout>
      <Dashboard />
    </ConsoleLayout>
  );
}

interface ConsoleProps {
  authProvider: AuthProvider;
  dataProvider: DataProvider;
  catalogues: Record<AdminLocale, Catalogue>;
}

function Console({ authProvider, dataProvider, catalogues }: ConsoleProps) {
  const i18nProvider = useMemo(() => createI18nProvider(catalogues), [catalogues]);
  return (
    <Admin
      basename={BASENAME}
      dataProvider={dataProvider}
      authProvider={authProvider}
      requireAuth
      i18nProvider={i18nProvider}
      layout={ConsoleLayout}
      theme={theme}
      dashboard={Dashboard}
      ready={EmptyShell}
      title="admin.title"
      disableTelemetry
    >
      {RESOURCES.map((resource) => (
        <Resource key={resource.name} {...resource} />
      ))}
      <CustomRoutes>
        <Route path="/time_travel" element={<TimeTravel />} />
      </CustomRoutes>
    </Admin>
  );
}

export interface AppProps {
  /** The site's message catalogues (`/_i18n/{lang}/messages.json`). */
  catalogues: Record<AdminLocale, Catalogue>;
  authProvider?: AuthProvider;
  dataProvider?: DataProvider;
}

export function App({ catalogues, authProvider = createAuthProvider(), dataProvider = createDataProvider() }: AppProps) {
  return (
    <CacheProvider value={styleCache()}>
      <BrowserRouter>
        <Routes>
          <Route
            path={`${BASENAME}/*`}
            element={<Console authProvider={authProvider} dataProvider={dataProvider} catalogues={catalogues} />}
          />
        </Routes>
      </BrowserRouter>
    </CacheProvider>
  );
}
