import { afterEach, describe, expect, it } from 'vitest';
import { consoleEntry, enterConsole } from './entry';

describe('the console entry', () => {
  afterEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('knows /en/admin and /ja/admin as the console in that language', () => {
    expect(consoleEntry('/en/admin')).toEqual({ lang: 'en', path: '/admin' });
    expect(consoleEntry('/ja/admin/events/3/show')).toEqual({ lang: 'ja', path: '/admin/events/3/show' });
    expect(consoleEntry('/admin/events')).toEqual({ lang: null, path: '/admin/events' });
    expect(consoleEntry('/en/administrators')).toEqual({ lang: null, path: '/en/administrators' });
  });

  it('drops the prefix from the address and remembers the language (the page was blank)', () => {
    window.history.replaceState(null, '', '/en/admin/events?filter=%7B%7D#top');
    enterConsole(window);
    expect(window.location.pathname).toBe('/admin/events');
    expect(window.location.search).toBe('?filter=%7B%7D');
    expect(window.location.hash).toBe('#top');
    expect(localStorage.getItem('RaStore.locale')).toBe('"en"');
  });

  it('leaves an unprefixed address and the stored language alone', () => {
    localStorage.setItem('RaStore.locale', '"ja"');
    window.history.replaceState(null, '', '/admin');
    enterConsole(window);
    expect(window.location.pathname).toBe('/admin');
    expect(localStorage.getItem('RaStore.locale')).toBe('"ja"');
  });
});
