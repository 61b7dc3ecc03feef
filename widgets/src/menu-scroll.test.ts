import { describe, expect, it } from 'vitest';
import { showCurrent } from './menu-scroll';

/** A row 300 px wide of links 120 px wide each, laid out by hand (happy-dom does no layout). */
function row(current: number): HTMLElement {
  const ul = document.createElement('ul');
  Object.defineProperties(ul, {
    clientWidth: { value: 300 },
    scrollWidth: { value: 8 * 120 },
    offsetLeft: { value: 0 },
  });
  for (let i = 0; i < 8; i += 1) {
    const a = document.createElement('a');
    if (i === current) a.setAttribute('aria-current', 'page');
    Object.defineProperties(a, { offsetLeft: { value: i * 120 }, offsetWidth: { value: 120 } });
    ul.appendChild(a);
  }
  return ul;
}

describe('showCurrent', () => {
  it('centres the current section in the row', () => {
    const ul = row(6);
    showCurrent(ul);
    expect(ul.scrollLeft).toBe(6 * 120 - 90);
  });
  it('leaves the row alone at its start, or when nothing is current', () => {
    const first = row(0);
    showCurrent(first);
    expect(first.scrollLeft).toBe(0);
    const none = row(-1);
    showCurrent(none);
    expect(none.scrollLeft).toBe(0);
  });
});
