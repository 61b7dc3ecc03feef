/**
 * The react-admin console at `/admin`, talking ra-data-simple-rest to `/admin/api`.
 * Browser history (not react-admin's default hash router): the server answers every
 * `/admin/<path>` with the same index.html, so deep links work.
 * While no resource is registered react-admin calls the app "empty" and renders `ready`;
 * `EmptyShell` shows the dashboard inside the normal layout then.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import simpleRestProvider from 'ra-data-simple-rest';
import { Admin, type AuthProvider, Resource } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { createAuthProvider } from './authProvider';
import { Dashboard } from './Dashboard';
import { i18nProvider } from './i18n';
import { ConsoleLayout, theme } from './layout';
import { RESOURCES } from './resources';

export const BASENAME = '/admin';
export const API_URL = '/admin/api';
const dataProvider = simpleRestProvider(API_URL);

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

function Console({ authProvider }: { authProvider: AuthProvider }) {
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
      title="vmarket.title"
      disableTelemetry
    >
      {RESOURCES.map((resource) => (
        <Resource key={resource.name} {...resource} />
      ))}
    </Admin>
  );
}

export function App({ authProvider = createAuthProvider() }: { authProvider?: AuthProvider }) {
  return (
    <CacheProvider value={styleCache()}>
      <BrowserRouter>
        <Routes>
          <Route path={`${BASENAME}/*`} element={<Console authProvider={authProvider} />} />
        </Routes>
      </BrowserRouter>
    </CacheProvider>
  );
}
