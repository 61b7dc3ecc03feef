import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthProvider } from 'react-admin';
import { App } from './App';

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
    render(<App authProvider={signedInStaff} />);
    const ready = await screen.findByTestId('admin-ready', {}, { timeout: 5000 });
    expect(ready.textContent).toBe('管理コンソールの準備ができました。');
    expect(document.title).toBe('バーチャルマーケット 管理コンソール');
  });
});
