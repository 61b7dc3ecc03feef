/** Smoke: the Japanese top page with the event name, phase timeline and live countdown island. */
// e2e-schedule: shared-read — reads the top page (its phase countdown follows the clock) (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, htmlLang, launchBrowser, newPage, screenshot, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const REMAINING = '[data-island="phase-countdown"] [data-testid="phase-countdown-remaining"]';

test('/ renders the current event in Japanese with a live phase countdown', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    const res = await page.goto(url('/'));
    assert.equal(res?.status(), 200);
    assert.equal(await htmlLang(page), 'ja');

    const title = await page.title();
    assert.ok(title.endsWith('| バーチャルマーケット'), `title was ${JSON.stringify(title)}`);

    const headings = await page.locator('h1').allTextContents();
    assert.ok(
      headings.some((h) => h.includes('バーチャルマーケット2026 Winter')),
      `h1 texts were ${JSON.stringify(headings)}`,
    );

    const timeline = await page.getByTestId('phase-timeline').innerText();
    assert.match(timeline, /エントリー/);

    // The island replaces the server's fallback and counts down on its own.
    await page.locator(REMAINING).waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await page.locator('[data-island="phase-countdown"] [data-testid="phase-countdown-live"]').count(), 1);
    const first = await page.locator(REMAINING).textContent();
    assert.ok(first?.trim(), 'remaining time is empty');
    await page.waitForFunction(
      ({ selector, before }) => document.querySelector(selector)?.textContent !== before,
      { selector: REMAINING, before: first },
      { timeout: 3000 },
    );

    await screenshot(page, 'home-ja.png');
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});
