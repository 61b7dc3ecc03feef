/**
 * The console's authProvider, backed by the site's own sign-in: the HttpOnly token cookie is
 * sent with every call, `/admin/api/session` says who is signed in and what their role may do
 * (DOMAIN.md's role table, computed by the server, resource by resource), and `canAccess` reads
 * that table so menus and buttons match what the server allows. The identity also says whether
 * the server travels in time at all (`timeTravel`: not in production, where the menu entry and
 * the page are gone). Signing out posts the site's sign-out form.
 */
import type { AuthProvider } from 'react-admin';
import { storedLocale } from './i18n';

/** What a role may do in an area, as the server reports it. */
export type Access = 'read' | 'read_and_act' | 'write';

/** `GET /admin/api/session`. */
export interface Session {
  id: number;
  vmarket_id: string;
  name_ja: string;
  name_en: string;
  avatar: string | null;
  role: 'admin' | 'director' | 'uc_staff' | 'qa_tester';
  access: Partial<Record<string, Access>>;
  /** Per resource (and the `time_travel` page), the actions the role may take. */
  permissions: Partial<Record<string, string[]>>;
  /** Whether the server moves its clock at all (false in production: no time-travel page). */
  time_travel: boolean;
}

/** What react-admin asks for, in the server's action names: an export is a list, a clone a create. */
const ACTION_ALIASES: Record<string, string> = { export: 'list', clone: 'create' };

/**
 * Whether `session` may do `action` on `resource`: read from the session's `permissions`, which
 * the server computes from the same table it enforces (unknown resources are refused).
 */
export function canAccessWith(session: Session, resource: string, action: string): boolean {
  if (resource === 'time_travel' && session.time_travel === false) return false;
  const allowed = session.permissions[resource];
  return allowed?.includes(ACTION_ALIASES[action] ?? action) ?? false;
}

/** Where the browser signs in to come back to the page it is on. */
export function signInUrl(path: string): string {
  return `/auth/login?next=${encodeURIComponent(path)}&auto=1`;
}

/** Ways the provider reaches the outside world (tests pass their own). */
export interface AuthEnvironment {
  fetch: typeof fetch;
  navigate: (url: string) => void;
  currentPath: () => string;
  signOut: () => void;
  lang: () => 'ja' | 'en';
}

function postSignOut(): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/auth/logout';
  const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
  const fields: [string, string][] = [
    ['csrf_token', csrf],
    ['next', '/'],
  ];
  for (const [name, value] of fields) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

const browser: AuthEnvironment = {
  fetch: (input, init) => fetch(input, init),
  navigate: (url) => window.location.assign(url),
  currentPath: () => window.location.pathname + window.location.search,
  signOut: postSignOut,
  lang: () => storedLocale(),
};

/** An error that carries the HTTP status react-admin looks at. */
class HttpStatusError extends Error {
  constructor(public status: number) {
    super(`HTTP ${status}`);
  }
}

/** The authProvider over `env` (the browser by default). */
export function createAuthProvider(env: AuthEnvironment = browser): AuthProvider {
  let current: Promise<Session> | null = null;
  const session = (): Promise<Session> => {
    current ??= env
      .fetch('/admin/api/session', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(async (res) => {
        if (!res.ok) throw new HttpStatusError(res.status);
        return (await res.json()) as Session;
      })
      .catch((err: unknown) => {
        current = null;
        throw err;
      });
    return current;
  };
  const toSignIn = () => env.navigate(signInUrl(env.currentPath()));

  return {
    login: async () => toSignIn(),
    logout: async () => {
      current = null;
      env.signOut();
      return false;
    },
    checkAuth: async () => {
      try {
        await session();
      } catch (err) {
        if (err instanceof HttpStatusError && err.status === 401) toSignIn();
        throw { message: false, logoutUser: false };
      }
    },
    checkError: async (error: { status?: number }) => {
      if (error?.status === 401) {
        current = null;
        toSignIn();
        throw { message: false, logoutUser: false };
      }
    },
    getIdentity: async () => {
      const s = await session();
      return {
        id: s.id,
        fullName: env.lang() === 'en' ? s.name_en : s.name_ja,
        avatar: s.avatar ?? undefined,
        timeTravel: s.time_travel !== false,
      };
    },
    getPermissions: async () => (await session()).role,
    canAccess: async ({ resource, action }) => canAccessWith(await session(), resource, action),
  };
}
