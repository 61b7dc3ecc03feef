/**
 * The react-admin console at `/admin`, talking ra-data-simple-rest to `/admin/api`.
 * Browser history (not react-admin's default hash router): the server answers every
 * `/admin/<path>` with the same index.html, so deep links work.
 * While no resource is registered react-admin calls the app "empty" and renders `ready`;
 * `EmptyShell` shows the dashboard inside the normal layout then.
 */
import simpleRestProvider from 'ra-data-simple-rest';
import { Admin, Layout, Resource } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Dashboard } from './Dashboard';
import { i18nProvider } from './i18n';
import { RESOURCES } from './resources';

export const BASENAME = '/admin';
export const API_URL = '/admin/api';
const dataProvider = simpleRestProvider(API_URL);

function EmptyShell() {
  return (
    <Layout>
      <Dashboard />
    </Layout>
  );
}

function Console() {
  return (
    <Admin
      basename={BASENAME}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
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

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path={`${BASENAME}/*`} element={<Console />} />
      </Routes>
    </BrowserRouter>
  );
}
