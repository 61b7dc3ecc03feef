/**
 * Browser entry of the admin console: starts error reporting when the page has a DSN
 * (`@vmarket/telemetry`), loads both message catalogues, then renders; errors React catches
 * are reported too.
 */
import { startErrorReporting } from '@vmarket/telemetry';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { enterConsole } from './entry';
import { loadCatalogues } from './i18n';

enterConsole();
const reporting = startErrorReporting();
const container = document.getElementById('root');
if (container) {
  void Promise.all([loadCatalogues(), reporting]).then(([catalogues, report]) => {
    createRoot(container, {
      onUncaughtError: (error) => report(error),
      onCaughtError: (error) => report(error),
    }).render(
      <StrictMode>
        <App catalogues={catalogues} />
      </StrictMode>,
    );
  });
}
