/**
 * The React half of island mounting, loaded lazily with the first island of a page:
 * renders a component into its island element inside the translator context.
 */
import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import type { Translate } from './i18n';
import { I18nContext } from './i18n-react';

/** Renders `Component` into `el` (replacing the fallback markup) and returns an unmount function. */
export function renderIsland<P extends object>(
  el: HTMLElement,
  Component: ComponentType<P>,
  props: P,
  t: Translate,
): () => void {
  const root = createRoot(el);
  root.render(
    <I18nContext.Provider value={t}>
      <Component {...props} />
    </I18nContext.Provider>,
  );
  return () => root.unmount();
}
