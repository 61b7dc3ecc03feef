/**
 * React access to the widget translator: islands and toasts call `useT()` and never hold
 * literal UI text. The default (no provider) shows keys, like a failed message load.
 */
import { createContext, useContext } from 'react';
import type { Translate } from './i18n';

export const I18nContext = createContext<Translate>((key) => key);

/** The translate function of the nearest `I18nContext` provider. */
export function useT(): Translate {
  return useContext(I18nContext);
}
