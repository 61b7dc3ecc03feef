/**
 * On a phone the mypage menu is one row that scrolls sideways (`site.css`); this brings the
 * current section into that row's view, without scrolling the page itself.
 */

/** Scrolls `row` sideways so that its `[aria-current=page]` link is centred (when it can be). */
export function showCurrent(row: HTMLElement | null): void {
  const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
  if (!row || !current || row.scrollWidth <= row.clientWidth) return;
  const offset = current.offsetLeft - row.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
  row.scrollLeft = Math.max(0, offset);
}
