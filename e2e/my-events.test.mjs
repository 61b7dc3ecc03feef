/**
 * Mypage user events in a real browser: a new visitor opens the "post an event" form from the
 * hub, signs up on the way, submits a form with a mistake, sees the error beside the field with
 * the input kept, fixes it, lands on the list with the post marked published, and finds it on
 * the hub. The form is a plain multipart form (no JavaScript needed).
 */
// e2e-schedule: shared-write — posts to the hub list other files read (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ACCOUNT_PATH, SUBMIT, TEST_TIMEOUT_MS, accountForm, launchBrowser, newPage, screenshot, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
const TITLE = `ランタン作り会 ${STAMP.slice(-4)}`;

test('post an event from the hub, fix a mistake, find it on the hub', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    await page.goto(url('/hub/2026Winter/virtual_events'));
    await Promise.all([page.waitForURL((u) => u.pathname === ACCOUNT_PATH), page.getByTestId('post-event').click()]);
    const signUp = await accountForm(page, 'sign-up');
    const account = {
      email: `events-${STAMP}@example.com`,
      password: `pw-${STAMP}-secret`,
      vmarket_id: `ev_${STAMP}`,
      name_ja: 'イベント主催者',
      name_en: 'Event Host',
    };
    for (const [field, value] of Object.entries(account)) await signUp.locator(`input[name="${field}"]`).fill(value);
    await Promise.all([
      page.waitForURL((u) => u.pathname.endsWith('/my_notification/new'), { timeout: 20_000 }),
      signUp.locator(SUBMIT).first().click(),
    ]);

    // A mistake: the end before the start.
    const form = page.getByTestId('event-form');
    await form.locator('#title').fill(TITLE);
    await form.locator('#content').fill('駅のホームで、ランタンを作って灯しましょう。');
    await form.locator('#start_at').fill('2030-12-20T21:00');
    await form.locator('#end_at').fill('2030-12-20T20:00');
    await form.locator('input[name="hub_tags"]').first().check();
    await Promise.all([page.waitForLoadState('load'), page.getByTestId('submit').click()]);
    assert.equal(await page.locator('[data-field="end_at"]').count(), 1, 'the error sits beside the end time');
    assert.equal(await page.locator('#title').inputValue(), TITLE, 'the input is kept');
    assert.ok(await page.locator('input[name="hub_tags"]').first().isChecked(), 'the tag stays checked');
    await screenshot(page, 'my-event-form-error-ja.png');

    await page.locator('#end_at').fill('2030-12-20T23:00');
    await Promise.all([
      page.waitForURL((u) => u.search.includes('done=created')),
      page.getByTestId('submit').click(),
    ]);
    const item = page.getByTestId('my-event').filter({ hasText: TITLE });
    assert.equal((await item.getByTestId('standing').textContent())?.trim(), '公開中');
    await screenshot(page, 'my-events-ja.png');

    await Promise.all([page.waitForURL((u) => u.pathname.includes('/hub/2026Winter/virtual_events/')), item.getByTestId('on-hub').click()]);
    assert.equal((await page.locator('[data-testid="hub-detail"] h1').textContent())?.trim(), TITLE);
    assert.equal((await page.getByTestId('hub-host').textContent())?.trim(), 'イベント主催者');
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});
