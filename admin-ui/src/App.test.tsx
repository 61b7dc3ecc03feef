import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthProvider } from 'react-admin';
import en from '../../locales/en.json';
import ja from '../../locales/ja.json';
import { App } from './App';
import { type Session, createAuthProvider } from './authProvider';
import type { ConsoleDataProvider } from './dataProvider';
import type { Catalogue } from './i18n';

const catalogues = { ja: ja as Catalogue, en: en as Catalogue };

/** The dashboard as the server would answer it for support staff with one open inquiry. */
const dataProvider = {
  clock: async () => ({ timestamp: null, offset_seconds: 0, now: '2026-11-23T00:00:00Z' }),
  dashboard: async () => ({
    cards: [
      {
        key: 'pending_inquiries',
        resource: 'inquiries',
        filter: { handling: 'open' },
        count: 1,
        items: [{ id: 7, title: 'ログインできません', detail: '未対応', at: '2026-11-23T00:00:00Z' }],
      },
      { key: 'unforwarded', resource: 'inquiries', filter: { unforwarded_before: '2026-11-22T23:45:00Z' }, count: 0, items: [] },
      {
        key: 'stuck_payments',
        resource: 'payments',
        filter: { state: 'pending', created_at_lte: '2026-11-22T23:50:00Z' },
        count: 2,
        items: [{ id: 4, title: '#4 ともしび工房 ¥8,000 (Stripe)', detail: '決済サービスへの確認 1 回', at: '2026-11-22T20:00:00Z' }],
      },
    ],
  }),
} as unknown as ConsoleDataProvider;

/** A staff session as the server would report it (no server runs in unit tests). */
const signedInStaff: AuthProvider = {
  login: async () => {},
  logout: async () => false,
  checkAuth: async () => {},
  checkError: async () => {},
  getPermissions: async () => 'admin',
  getIdentity: async () => ({ id: 1, fullName: '管理者' }),
};

describe('<App>', () => {
  afterEach(() => cleanup());

  it('renders the Japanese dashboard under /admin', async () => {
    window.history.replaceState(null, '', '/admin');
    localStorage.clear();
    render(<App catalogues={catalogues} authProvider={signedInStaff} dataProvider={dataProvider} />);
    const ready = await screen.findByTestId('admin-ready');
    expect(ready.textContent).toBe(ja.admin.dashboard.welcome.replace('{name}', '管理者'));
    expect(document.title).toBe(ja.admin.title);
    const pending = await screen.findByTestId('card-pending_inquiries');
    expect(pending.textContent).toContain(ja.admin.dashboard.cards.pending_inquiries.title);
    expect(pending.textContent).toContain('ログインできません');
    expect(pending.textContent).toContain(ja.admin.dashboard.show_all.replace('{count}', '1'));
    const unforwarded = await screen.findByTestId('card-unforwarded');
    expect(unforwarded.textContent).toContain(ja.admin.dashboard.cards.unforwarded.empty);
    const stuck = await screen.findByTestId('card-stuck_payments');
    expect(stuck.textContent).toContain(ja.admin.dashboard.cards.stuck_payments.title);
    expect(stuck.textContent).toContain('#4 ともしび工房 ¥8,000 (Stripe)');
    // The card links to the list filtered the same way.
    const link = stuck.querySelector('a');
    expect(decodeURIComponent(link?.getAttribute('href') ?? '')).toBe(
      '/admin/payments?filter={"state":"pending","created_at_lte":"2026-11-22T23:50:00Z"}',
    );
  });

  it('names the loading spinner for screen readers while a list loads', async () => {
    window.history.replaceState(null, '', '/admin/events');
    localStorage.clear();
    const loading = { ...dataProvider, getList: () => new Promise(() => {}) } as unknown as ConsoleDataProvider;
    render(<App catalogues={catalogues} authProvider={signedInStaff} dataProvider={loading} />);
    // Unnamed, the spinner is a progress bar assistive technology cannot name (axe: aria-progressbar-name).
    expect(await screen.findByRole('progressbar', { name: '読み込み中' })).toBeTruthy();
  });
});

/** The session `/admin/api/session` answers for `role` with these permissions (no server here). */
function staffWith(role: Session['role'], permissions: Session['permissions']): AuthProvider {
  const session: Session = { id: 2, vmarket_id: role, name_ja: 'スタッフ', name_en: 'Staff', avatar: null, role, access: {}, permissions, time_travel: true };
  return createAuthProvider({
    fetch: async () => new Response(JSON.stringify(session), { status: 200 }),
    navigate: () => {},
    currentPath: () => '/admin',
    signOut: () => {},
    lang: () => 'ja',
  });
}

const EVERYTHING = ['list', 'show', 'create', 'edit', 'delete'];

describe('<App> menus follow the role', () => {
  afterEach(() => cleanup());

  /** The menu's links once `shown` is among them (access checks resolve asynchronously). */
  async function menuLinks(auth: AuthProvider, shown: string): Promise<string[]> {
    window.history.replaceState(null, '', '/admin');
    localStorage.clear();
    render(<App catalogues={catalogues} authProvider={auth} dataProvider={dataProvider} />);
    await screen.findByTestId('admin-ready');
    await waitFor(() => expect(links()).toContain(shown));
    return links();
  }

  function links(): string[] {
    return Array.from(document.querySelectorAll('.RaMenu-open a, [class*="RaMenu"] a'))
      .map((a) => a.getAttribute('href') ?? '')
      .filter((href, i, all) => all.indexOf(href) === i);
  }

  it('a director sees events and time travel, not users', async () => {
    const links = await menuLinks(
      staffWith('director', { events: EVERYTHING, audit_log: ['list', 'show'], time_travel: ['show', 'edit'] }),
      '/admin/time_travel',
    );
    expect(links).toContain('/admin/events');
    expect(links).toContain('/admin/audit_log');
    expect(links).toContain('/admin/time_travel');
    expect(links).not.toContain('/admin/users');
    expect(links).not.toContain('/admin/inquiries');
  });

  it('UC staff see users but no time travel', async () => {
    const links = await menuLinks(
      staffWith('uc_staff', { events: ['list', 'show'], users: ['list', 'show'], inquiries: ['list', 'show', 'edit'] }),
      '/admin/users',
    );
    expect(links).toContain('/admin/users');
    expect(links).toContain('/admin/inquiries');
    expect(links).not.toContain('/admin/time_travel');
    expect(links).not.toContain('/admin/audit_log');
  });
});
