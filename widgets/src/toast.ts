/**
 * Page toasts without React (this module is part of the small entry that runs on every page).
 * Spec §9: bottom right, no progress bar, auto-close after 3000 ms (paused while hovered).
 * Texts come in already translated; the look can be overridden by `.vmarket-toast*` CSS.
 */

/** Spec §9: auto-close 3000 ms. */
export const TOAST_AUTO_CLOSE_MS = 3000;

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastOptions {
  /** A toast with the same id is shown only once while it is on screen. */
  id?: string;
  action?: ToastAction;
  autoCloseMs?: number;
  doc?: Document;
}

const REGION_CLASS = 'vmarket-toasts';

function region(doc: Document): HTMLElement {
  const found = doc.querySelector<HTMLElement>(`.${REGION_CLASS}`);
  if (found) return found;
  const el = doc.createElement('div');
  el.className = REGION_CLASS;
  el.setAttribute('role', 'status');
  el.setAttribute('aria-live', 'polite');
  Object.assign(el.style, {
    position: 'fixed',
    right: '16px',
    bottom: '16px',
    zIndex: '9999',
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    alignItems: 'flex-end',
  });
  doc.body.appendChild(el);
  return el;
}

/** Shows a toast; returns its element, or null when one with the same id is already shown. */
export function showToast(message: string, opts: ToastOptions = {}): HTMLElement | null {
  const doc = opts.doc ?? document;
  const host = region(doc);
  if (opts.id && Array.from(host.children).some((c) => (c as HTMLElement).dataset.toastId === opts.id)) {
    return null;
  }
  const toast = doc.createElement('div');
  toast.className = 'vmarket-toast';
  toast.dataset.testid = 'toast';
  if (opts.id) toast.dataset.toastId = opts.id;
  Object.assign(toast.style, {
    background: '#333',
    color: '#fff',
    padding: '12px 16px',
    borderRadius: '6px',
    boxShadow: '0 2px 8px rgba(0,0,0,.25)',
    font: '14px/1.5 sans-serif',
    maxWidth: '360px',
  });
  const text = doc.createElement('span');
  text.className = 'vmarket-toast__message';
  text.textContent = message;
  toast.appendChild(text);

  if (opts.action) {
    const { label, onClick } = opts.action;
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'vmarket-toast__action';
    button.textContent = label;
    Object.assign(button.style, {
      marginLeft: '12px',
      background: 'transparent',
      color: 'inherit',
      border: '1px solid currentColor',
      borderRadius: '4px',
      padding: '2px 8px',
      cursor: 'pointer',
      font: 'inherit',
    });
    button.addEventListener('click', onClick);
    toast.appendChild(button);
  }

  const ms = opts.autoCloseMs ?? TOAST_AUTO_CLOSE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    timer = setTimeout(() => toast.remove(), ms);
  };
  toast.addEventListener('mouseenter', () => clearTimeout(timer));
  toast.addEventListener('mouseleave', arm);
  host.appendChild(toast);
  arm();
  return toast;
}
