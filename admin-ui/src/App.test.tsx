import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from './App';

describe('<App>', () => {
  afterEach(() => cleanup());

  it('renders the Japanese dashboard under /admin', async () => {
    window.history.replaceState(null, '', '/admin');
    localStorage.clear();
    render(<App />);
    const ready = await screen.findByTestId('admin-ready', {}, { timeout: 5000 });
    expect(ready.textContent).toBe('管理コンソールの準備ができました。');
    expect(document.title).toBe('バーチャルマーケット 管理コンソール');
  });
});
