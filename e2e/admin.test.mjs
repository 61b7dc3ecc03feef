/**
 * The react-admin console at /admin (Japanese by default): staff sign in through the site's own
 * sign-in and get the dashboard, deep links included; a signed-in visitor who is not staff gets
 * a refusal page in their language, and the console never loads for them.
 */
// e2e-schedule: shared-read — signs in the e2e staff and a new visitor of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  STAFF,
  SUBMIT,
  TEST_TIMEOUT_MS,
  accountForm,
  htmlLang,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  url,
} from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

// locales/ja.json `admin.dashboard.welcome`, for the staff account scripts/e2e creates (運営テスト).
const READY_JA = '運営テストさん、おつかれさまです。対応が必要なものをまとめています。';
const TITLE_JA = 'バーチャルマーケット 管理コンソール';

test('staff sign in at /admin and get the react-admin dashboard, deep links too', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  assert.ok(STAFF.email, 'scripts/e2e creates the staff account');
  const { page, errors, close } = await newPage(browser);
  try {
    // Signed out, the console sends the browser to sign in and brings it back.
    await page.goto(url('/admin'));
    await signIn(page, STAFF, (path) => path === '/admin');
    const ready = page.getByTestId('admin-ready');
    await ready.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await ready.textContent())?.trim(), READY_JA);
    assert.equal(await page.title(), TITLE_JA);
    await screenshot(page, 'admin.png');

    // Client-side routing: any /admin/<path> is the same console, deep links included
    // (`/admin/worlds` too, which has the shape of an event's worlds page).
    const res = await page.goto(url('/admin/worlds'));
    assert.equal(res?.status(), 200);
    await page.locator('table tbody tr').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await page.locator('h1').textContent())?.trim(), 'ワールド');
    assert.deepEqual(errors, [], 'uncaught page errors (a CSP violation would show here too)');
  } finally {
    await close();
  }
});

test('a signed-in visitor who is not staff is refused, in English on /en pages', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, close } = await newPage(browser);
  try {
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    // Sign up through the header link, in English.
    await page.goto(url('/en'));
    await page.getByTestId('sign-in').first().click();
    const form = await accountForm(page, 'sign-up');
    await form.locator('input[name="email"]').fill(`visitor-${stamp}@example.com`);
    await form.locator('input[name="password"]').fill(`pw-${stamp}-secret`);
    await form.locator('input[name="vmarket_id"]').fill(`visitor_${stamp}`.slice(0, 20));
    await form.locator('input[name="name_ja"]').fill('見学者');
    await form.locator('input[name="name_en"]').fill('Visitor');
    await Promise.all([page.waitForURL((u) => u.pathname === '/en'), form.locator(SUBMIT).first().click()]);

    const res = await page.goto(url('/admin'));
    assert.equal(res?.status(), 403);
    assert.equal(await htmlLang(page), 'en', 'the refusal speaks the language they signed up in');
    assert.equal(
      (await page.getByTestId('error-detail').textContent())?.trim(),
      'This page is for Virtual Market staff only.',
    );
    assert.equal(await page.getByTestId('admin-dashboard').count(), 0);
    await screenshot(page, 'admin-forbidden.png');
  } finally {
    await close();
  }
});
