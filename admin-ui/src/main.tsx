/** Browser entry of the admin console: loads both message catalogues, then renders. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { enterConsole } from './entry';
import { loadCatalogues } from './i18n';

enterConsole();
const container = document.getElementById('root');
if (container) {
  void loadCatalogues().then((catalogues) => {
    createRoot(container).render(
      <StrictMode>
        <App catalogues={catalogues} />
      </StrictMode>,
    );
  });
}
