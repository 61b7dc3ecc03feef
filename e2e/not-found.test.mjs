/** Smoke: an unknown English path shows the error page (spec §2 "Error page"). */
// e2e-schedule: shared-read — reads an error page (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, htmlLang, launchBrowser, newPage, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

test('an unknown /en path shows the 404 error page in English', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, close } = await newPage(browser);
  try {
    const res = await page.goto(url('/en/no-such-page-xyz'));
    assert.equal(res?.status(), 404);
    assert.equal(await htmlLang(page), 'en');
    const text = await page.locator('body').innerText();
    assert.match(text, /404 ERROR/);
    assert.match(text, /Return to TOP/);
  } finally {
    await close();
  }
});
