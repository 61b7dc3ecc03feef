import { describe, expect, it } from 'vitest';
import { type AuthEnvironment, type Session, canAccessWith, createAuthProvider } from './authProvider';

const director: Session = {
  id: 7,
  vmarket_id: 'dir',
  name_ja: 'ディレクター',
  name_en: 'Director',
  avatar: null,
  role: 'director',
  access: { event: 'write', exhibitors: 'write', lottery: 'write', payments: 'read', support: 'write', time_travel: 'write', audit: 'read' },
  permissions: {
    events: ['list', 'show', 'create', 'edit', 'delete'],
    payments: ['list', 'show'],
    time_travel: ['show', 'edit'],
  },
  time_travel: true,
};

function env(status: number, body: unknown = director) {
  const visited: string[] = [];
  let signOuts = 0;
  const e: AuthEnvironment = {
    fetch: async () => new Response(JSON.stringify(body), { status }),
    navigate: (url) => visited.push(url),
    currentPath: () => '/admin/events',
    signOut: () => {
      signOuts += 1;
    },
    lang: () => 'en',
  };
  return { e, visited, signOuts: () => signOuts };
}

describe('canAccess mirrors the role table', () => {
  it('lets a director write events but not touch roles or reconcile payments', () => {
    expect(canAccessWith(director, 'events', 'edit')).toBe(true);
    expect(canAccessWith(director, 'events', 'export')).toBe(true);
    expect(canAccessWith(director, 'events', 'clone')).toBe(true);
    expect(canAccessWith(director, 'payments', 'list')).toBe(true);
    expect(canAccessWith(director, 'payments', 'reconcile')).toBe(false);
    expect(canAccessWith(director, 'payments', 'edit')).toBe(false);
    expect(canAccessWith(director, 'users', 'list')).toBe(false);
    expect(canAccessWith(director, 'unknown_resource', 'list')).toBe(false);
  });

  it('lets an admin reconcile payments', () => {
    const admin: Session = {
      ...director,
      role: 'admin',
      access: { payments: 'read_and_act', users: 'write' },
      permissions: { payments: ['list', 'show', 'reconcile'], users: ['list', 'show', 'edit'] },
    };
    expect(canAccessWith(admin, 'payments', 'reconcile')).toBe(true);
    expect(canAccessWith(admin, 'payments', 'delete')).toBe(false);
    expect(canAccessWith(admin, 'users', 'edit')).toBe(true);
    expect(canAccessWith(admin, 'users', 'delete')).toBe(false);
    expect(canAccessWith(admin, 'users', 'clone')).toBe(false);
  });

  it('never offers time travel where the server does not travel (production)', async () => {
    expect(canAccessWith(director, 'time_travel', 'edit')).toBe(true);
    const production: Session = { ...director, time_travel: false };
    expect(canAccessWith(production, 'time_travel', 'show')).toBe(false);
    expect(canAccessWith(production, 'time_travel', 'edit')).toBe(false);
    expect(canAccessWith(production, 'events', 'edit')).toBe(true);
    const { e } = env(200, production);
    const auth = createAuthProvider(e);
    expect(await auth.canAccess?.({ resource: 'time_travel', action: 'show' })).toBe(false);
    expect((await auth.getIdentity?.())?.timeTravel).toBe(false);
  });
});

describe('createAuthProvider', () => {
  it('reads identity and permissions from the session', async () => {
    const { e } = env(200);
    const auth = createAuthProvider(e);
    await auth.checkAuth({});
    expect(await auth.getIdentity?.()).toEqual({ id: 7, fullName: 'Director', avatar: undefined, timeTravel: true });
    expect(await auth.getPermissions?.({})).toBe('director');
    expect(await auth.canAccess?.({ resource: 'users', action: 'list' })).toBe(false);
  });

  it('sends a signed-out browser to sign in and back', async () => {
    const { e, visited } = env(401, { code: 'unauthorized' });
    const auth = createAuthProvider(e);
    await expect(auth.checkAuth({})).rejects.toBeTruthy();
    expect(visited).toEqual(['/auth/login?next=%2Fadmin%2Fevents&auto=1']);
  });

  it('signs out through the site form, once', async () => {
    const { e, signOuts } = env(200);
    const auth = createAuthProvider(e);
    expect(await auth.logout?.({})).toBe(false);
    expect(signOuts()).toBe(1);
  });
});
