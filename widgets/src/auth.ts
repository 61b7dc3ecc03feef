/**
 * The page's authentication-error flag (spec §4 "Any 401 from an API call flags an auth
 * error"). Every page load starts unflagged — a navigation is a new document — so the flag
 * only lives in memory; islands subscribe to it to show a sign-in prompt.
 */

type Listener = () => void;

let authError = false;
const listeners = new Set<Listener>();

/** Sets the flag (idempotent) and tells the subscribers the first time. */
export function flagAuthError(): void {
  if (authError) return;
  authError = true;
  for (const listener of Array.from(listeners)) {
    try {
      listener();
    } catch (err) {
      console.warn('[vmarket] auth-error listener failed', err);
    }
  }
}

/** Whether an API call on this page answered 401. */
export function hasAuthError(): boolean {
  return authError;
}

/** Calls `listener` when the flag gets set; returns an unsubscribe function. */
export function onAuthError(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Clears the flag (tests; a real page clears it by navigating). */
export function resetAuthError(): void {
  authError = false;
}

/**
 * Where to send a user to sign in again: the header's `[data-testid="sign-in"]` link (which
 * carries the account service URL with a redirect_url back here), or null when the page has none.
 */
export function signInHref(doc: Document = document): string | null {
  const link = doc.querySelector<HTMLAnchorElement>('a[data-testid="sign-in"]');
  const href = link?.getAttribute('href')?.trim();
  return href ? href : null;
}
