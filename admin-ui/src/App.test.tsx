import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthProvider } from 'react-admin';
import en from '../../locales/en.json';
import ja from '../../locales/ja.json';
import { App } from './App';
import type { ConsoleDataProvider } from './dataProvider';
import type { Catalogue } from './i18n';

const catalogues = { ja: ja as Catalogue, en: en as Catalogue };

/** The dashboard as the server would answer it for support staff with one open inquiry. */
const dataProvider = {
  dashboard: async () => ({
    cards: [
      {
        key: 'pending_inquiries',
        resource: 'inquiries',
        filter: { handling: 'open' },
        count: 1,
        items: [{ id: 7, title: 'ログインできません', detail: '未対応', at: '2026-11-23T00:00:00Z' }],
      },
      { key: 'failed_forwarding', resource: 'inquiries', filter: { forwarding: 'failed' }, count: 0, items: [] },
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
    const ready = await screen.findByTestId('admin-ready', {}, { timeout: 10_000 });
    expect(ready.textContent).toBe(ja.admin.dashboard.welcome.replace('{name}', '管理者'));
    expect(document.title).toBe(ja.admin.title);
    const pending = await screen.findByTestId('card-pending_inquiries');
    expect(pending.textContent).toContain(ja.admin.dashboard.cards.pending_inquiries.title);
    expect(pending.textContent).toContain('ログインできません');
    expect(pending.textContent).toContain(ja.admin.dashboard.show_all.replace('{count}', '1'));
    const failed = await screen.findByTestId('card-failed_forwarding');
    expect(failed.textContent).toContain(ja.admin.dashboard.cards.failed_forwarding.empty);
  });
});
