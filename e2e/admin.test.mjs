/** Smoke: the react-admin console shell at /admin (Japanese by default) and its deep links. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

// admin-ui/src/i18n/vmarket.ts, ja.
const READY_JA = '管理コンソールの準備ができました。';
const TITLE_JA = 'バーチャルマーケット 管理コンソール';

test('/admin renders the react-admin dashboard', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    const res = await page.goto(url('/admin'));
    assert.equal(res?.status(), 200);
    const ready = page.getByTestId('admin-ready');
    await ready.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await ready.textContent())?.trim(), READY_JA);
    assert.equal(await page.title(), TITLE_JA);
    assert.equal(new URL(page.url()).pathname, '/admin');
    await screenshot(page, 'admin.png');
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});

test('/admin/<path> serves the same console (client-side routing)', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, close } = await newPage(browser);
  try {
    const res = await page.goto(url('/admin/some/deep/link'));
    assert.equal(res?.status(), 200);
    await page.getByTestId('admin-dashboard').waitFor({ state: 'visible', timeout: 30_000 });
  } finally {
    await close();
  }
});
