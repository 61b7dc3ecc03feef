/**
 * Sign-up, profile editing and sign-out through the account service (spec §4 "Authentication"):
 * a visitor signs up from the header link, comes back signed in, renames themselves on
 * /mypage/profile (the profile-form island), sees the header follow in both languages, signs
 * out, and signs in again with the sign-in form, then reads the exhibitor news on mypage.
 */
// e2e-schedule: shared-read — a new account of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import {
  ACCOUNT_PATH,
  SUBMIT,
  TEST_TIMEOUT_MS,
  accountForm,
  htmlLang,
  launchBrowser,
  newPage,
  screenshot,
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

/** @param {string} lang @returns {Record<string, string>} */
function profileMessages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8')).profile_form;
}
const SAVED_JA = profileMessages('ja').saved;

const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
const ACCOUNT = {
  email: `e2e-${STAMP}@example.com`,
  password: `pw-${STAMP}-secret`,
  vmarket_id: `e2e_${STAMP}`,
  name_ja: 'テスト太郎',
  name_en: 'Taro Test',
};
const NEW_NAME_JA = `更新花子${STAMP.slice(-4)}`;
const NEW_NAME_EN = `Hanako Updated ${STAMP.slice(-4)}`;
/** Whether the first test created the account the second one signs in with. */
let signedUp = false;

/**
 * Waits until the header shows `name` (every `[data-testid=header-user-name]` on the page).
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
async function expectHeaderName(page, name) {
  try {
    await page.waitForFunction(
      (expected) => {
        const els = Array.from(document.querySelectorAll('[data-testid="header-user-name"]'));
        return els.length > 0 && els.every((el) => el.textContent?.trim() === expected);
      },
      name,
      { timeout: 10_000 },
    );
  } catch {
    const shown = await page.getByTestId('header-user-name').allTextContents();
    assert.fail(`header name should be ${JSON.stringify(name)} on ${page.url()}, was ${JSON.stringify(shown)}`);
  }
}

/**
 * Waits for the profile-form island to load the user.
 * @param {import('playwright-core').Page} page
 */
async function profileForm(page) {
  const form = page.locator('[data-island="profile-form"] [data-testid="profile-form"]');
  await form.waitFor({ state: 'visible', timeout: 15_000 });
  return form;
}

/**
 * The current page is the account service's sign-in page, started as the site starts every one.
 * @param {import('playwright-core').Page} page
 */
function accountRedirect(page) {
  const current = new URL(page.url());
  assert.equal(current.pathname, ACCOUNT_PATH, `expected the account page, got ${page.url()}`);
  // The code only ever goes to the site's own callback; where to land afterwards stays on the
  // server, bound to this sign-in's state.
  assert.equal(current.searchParams.get('redirect_url'), url('/auth/callback'));
  assert.ok(current.searchParams.get('state'), `no state on ${page.url()}`);
  assert.equal(current.searchParams.get('code_challenge_method'), 'S256');
}

test('sign up from the header, edit the profile in both languages, sign out', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    // A visitor on the top page goes to the account service from the header.
    const res = await page.goto(url('/'));
    assert.equal(res?.status(), 200);
    const signIn = page.getByTestId('sign-in');
    await signIn.waitFor({ state: 'visible' });
    assert.equal(await page.getByTestId('header-user').count(), 0, 'a visitor should not see a user in the header');
    await Promise.all([page.waitForURL((u) => u.pathname === ACCOUNT_PATH), signIn.click()]);
    accountRedirect(page);
    assert.equal(await htmlLang(page), 'ja');
    await screenshot(page, 'account-ja.png');

    // Sign up; the account service sends the browser back to the top page, signed in.
    const signUp = await accountForm(page, 'sign-up');
    for (const [field, value] of Object.entries(ACCOUNT)) {
      await signUp.locator(`input[name="${field}"]`).fill(value);
    }
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/', { timeout: 20_000 }),
      signUp.locator(SUBMIT).first().click(),
    ]);
    signedUp = true;
    await expectHeaderName(page, ACCOUNT.name_ja);
    await page.getByTestId('sign-out').waitFor({ state: 'attached' });

    // Rename on /mypage/profile.
    assert.equal((await page.goto(url('/mypage/profile')))?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/mypage/profile');
    const form = await profileForm(page);
    assert.equal(await form.getByTestId('profile-name-ja').inputValue(), ACCOUNT.name_ja);
    assert.equal(await form.getByTestId('profile-name-en').inputValue(), ACCOUNT.name_en);
    await form.getByTestId('profile-name-ja').fill(NEW_NAME_JA);
    await form.getByTestId('profile-name-en').fill(NEW_NAME_EN);
    await form.getByTestId('profile-submit').click();
    const toast = page.locator('[data-testid="toast"]', { hasText: SAVED_JA });
    await toast.waitFor({ state: 'visible', timeout: 10_000 });
    await expectHeaderName(page, NEW_NAME_JA);
    assert.equal(await page.getByTestId('profile-form-error').count(), 0, 'the form shows an error');
    await screenshot(page, 'profile-ja.png');

    // The change is stored: a reload still shows it.
    await page.reload();
    await expectHeaderName(page, NEW_NAME_JA);
    assert.equal(await (await profileForm(page)).getByTestId('profile-name-ja').inputValue(), NEW_NAME_JA);

    // The English page shows the English name.
    assert.equal((await page.goto(url('/en/mypage/profile')))?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/en/mypage/profile');
    assert.equal(await htmlLang(page), 'en');
    await expectHeaderName(page, NEW_NAME_EN);
    assert.equal(await (await profileForm(page)).getByTestId('profile-name-en').inputValue(), NEW_NAME_EN);
    await screenshot(page, 'profile-en.png');

    // Sign out from a public page: the header offers sign-in again.
    await page.goto(url('/'));
    await expectHeaderName(page, NEW_NAME_JA);
    await page.getByTestId('sign-out').first().click();
    // Through the account service and back: the new page's header has the sign-in link.
    await page.getByTestId('sign-in').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(new URL(page.url()).pathname, '/', `sign-out should come back to the top page, got ${page.url()}`);
    assert.equal(await page.getByTestId('header-user-name').count(), 0, 'the header still shows a user');

    // Mypage now needs a sign-in again.
    await page.goto(url('/mypage'));
    await page.waitForURL((u) => u.pathname === ACCOUNT_PATH);
    accountRedirect(page);
    await accountForm(page, 'sign-in');

    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});

test('the sign-in form signs the same user back in, who reads the news on mypage', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  assert.ok(signedUp, 'the sign-up test did not create the account');
  const { page, errors, close } = await newPage(browser);
  try {
    await page.goto(url('/mypage'));
    await page.waitForURL((u) => u.pathname === ACCOUNT_PATH);
    const form = await accountForm(page, 'sign-in');
    await form.locator('input[name="email"]').fill(ACCOUNT.email);
    await form.locator('input[name="password"]').fill(ACCOUNT.password);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/mypage', { timeout: 20_000 }),
      form.locator(SUBMIT).first().click(),
    ]);
    await expectHeaderName(page, NEW_NAME_JA);

    // Mypage news: the dashboard links to the newest notification; reading it clears its mark.
    const newest = page.getByTestId('dashboard-news').getByTestId('news-item').first();
    const title = (await newest.getByTestId('news-title').textContent())?.trim() ?? '';
    assert.ok(title, 'the dashboard lists news');
    assert.equal(await newest.getByTestId('unread').count(), 1, 'a new account has not read it yet');
    await Promise.all([page.waitForURL((u) => /^\/mypage\/news\/\d+$/.test(u.pathname)), newest.locator('a').click()]);
    assert.equal((await page.locator('[data-testid="news-detail"] h1').textContent())?.trim(), title);
    await screenshot(page, 'news-detail-ja.png');
    await page.goto(url('/mypage/news'));
    const first = page.getByTestId('news-item').first();
    assert.equal((await first.getByTestId('news-title').textContent())?.trim(), title);
    assert.equal(await first.getByTestId('unread').count(), 0, 'the notification read is no longer marked');
    assert.ok((await page.getByTestId('news-item').count()) > 1);
    await screenshot(page, 'news-ja.png');
    assert.equal((await page.goto(url('/en/mypage/news')))?.status(), 200);
    assert.equal(await htmlLang(page), 'en');
    assert.match((await page.getByTestId('news-summary').textContent()) ?? '', /\d+ unread/);
    await screenshot(page, 'news-en.png');

    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});
