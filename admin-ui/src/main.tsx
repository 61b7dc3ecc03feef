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
  // The console does not wait for Sentry's code: errors caught before it has loaded are reported
  // once it has (as the widgets' islands do).
  const report = (error: unknown) => void reporting.then((send) => send(error));
  void loadCatalogues().then((catalogues) => {
    createRoot(container, { onUncaughtError: report, onCaughtError: report }).render(
      <StrictMode>
        <App catalogues={catalogues} />
      </StrictMode>,
    );
  });
}
