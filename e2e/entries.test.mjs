/**
 * Applying to an event in a real browser, with the demo data of `vmarket seed demo`: its
 * upcoming event 2027Summer takes entries from the day before the seed ran. In Japanese the
 * demo exhibitor applies for ともしび工房 with two wishes and edits the entry; in English the
 * demo friend creates a circle and does the same. Staff then move the clock into the first
 * draw's window (time travel) and draw it with the CLI (`vmarket lottery commit|preview|publish
 * --event 2027Summer --round first`); both owners see won / not drawn in their entry history.
 * Inside the first payment window the exhibitor declines the win (confirmation page), the
 * friend changes the AMP options (a malformed id first, shown beside its wish), and the
 * published draw downloaded from the event page verifies with `vmarket lottery verify
 * --published`. Screenshots of every page at desktop and phone (390 px) width; nothing
 * overflows the phone.
 */
// e2e-schedule: shared-write — the demo circles' entries, the draw, travels the clock (scripts/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { STAFF, TEST_TIMEOUT_MS, VMARKET_BIN, launchBrowser, newPage, screenshot, signIn, travel, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const DEMO_PASSWORD = JSON.parse(readFileSync(new URL('../src/seed/data/accounts.json', import.meta.url), 'utf8'))
  .password;
const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
const FRIEND = { email: 'friend@demo.vmarket.test', password: DEMO_PASSWORD };
const EVENT = '2027Summer';

/** @param {string} lang @returns {any} */
function messages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

/** The demo plans of 2027Summer by key (`src/seed/data/entries.json`). */
const PLANS = Object.fromEntries(
  JSON.parse(readFileSync(new URL('../src/seed/data/entries.json', import.meta.url), 'utf8'))
    .plans.filter((/** @type {any} */ p) => p.event === EVENT)
    .map((/** @type {any} */ p) => [p.key, p]),
);

const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`.slice(-5);

/**
 * Screenshots the page at desktop and phone width, checking the phone does not scroll sideways.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
async function photograph(page, name) {
  await screenshot(page, `entries-${name}-desktop.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `${page.url()} overflows the phone screen by ${overflow}px`);
  await screenshot(page, `entries-${name}-phone.png`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * The value of the option of `select` whose text starts with the plan's name.
 * @param {import('playwright-core').Page} page
 * @param {string} select
 * @param {string} name
 */
async function planOption(page, select, name) {
  const values = await page
    .locator(`${select} option`)
    .evaluateAll((els, n) => els.filter((e) => (e.textContent ?? '').startsWith(n)).map((e) => e.getAttribute('value')), name);
  assert.equal(values.length, 1, `one option for ${name}`);
  return /** @type {string} */ (values[0]);
}

/**
 * Fills the entry form's wishes and sends it through the details page.
 * @param {import('playwright-core').Page} page
 * @param {string} lang
 * @param {string[]} plans plan names, first wish first ('' for none)
 * @param {string} shot
 */
async function sendForm(page, lang, plans, shot) {
  for (const [i, name] of plans.entries()) {
    const select = `#plan_${i + 1}`;
    await page.locator(select).selectOption(name ? await planOption(page, select, name) : '');
  }
  // The event's terms: each document linked; agreeing is required (an edit under the terms
  // already agreed to comes ticked).
  const agree = page.getByTestId('agree-terms');
  if ((await agree.count()) > 0) {
    assert.equal(await page.getByTestId('terms-document').count(), 3);
    await agree.check();
  }
  await photograph(page, `${shot}-form-${lang}`);
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/details')), page.getByTestId('submit').click()]);
  const shown = (await page.getByTestId('plan-name').allTextContents()).map((t) => t.trim());
  assert.deepEqual(shown, plans.filter(Boolean));
  await photograph(page, `${shot}-details-${lang}`);
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/complete')), page.getByTestId('confirm').click()]);
}

/**
 * An owner applies for `circle` with two wishes and edits the entry.
 * @param {import('playwright-core').Page} page
 * @param {'ja' | 'en'} lang
 * @param {string} circle
 * @param {boolean} multiple
 */
async function applyAndEdit(page, lang, circle, multiple) {
  const m = messages(lang).entries;
  const prefix = lang === 'en' ? '/en' : '';
  const name = (/** @type {string} */ key) => (lang === 'en' ? PLANS[key].name_en : PLANS[key].name_ja);
  await page.goto(url(`${prefix}/mypage/events`));
  const card = page.locator(`[data-testid=entry-event][data-permalink="${EVENT}"]`);
  assert.equal((await card.getByTestId('entry-open').textContent())?.trim(), m.events.open);
  await photograph(page, `events-${lang}`);
  const row = card.getByTestId('entry-circle').filter({ hasText: circle });
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/new')), row.getByTestId('apply').click()]);
  assert.deepEqual(
    (await page.getByTestId('plan').getByTestId('rate').allTextContents()).map((t) => t.trim()),
    [m.rate.normal, m.rate.over_capacity, m.rate.normal, m.rate.nearly_full],
  );
  // First wish: the roomy booth; second: the over-full corner (the draw will not reach it).
  await page.locator('#amp_id_1').fill(`amp-${STAMP}`);
  await page.locator('input[name=use_amp_1]').check();
  if (multiple) await page.getByTestId('multiple-win').check();
  await sendForm(page, lang, [name('s-glasshouse-space'), name('s-corner-space')], 'new');
  assert.equal((await page.locator('h1').textContent())?.trim(), m.complete.heading);
  await photograph(page, `complete-${lang}`);

  // Edit: the second wish becomes the free item exhibit.
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/edit')), page.getByTestId('edit').click()]);
  assert.equal(await page.locator('#amp_id_1').inputValue(), `amp-${STAMP}`, 'the saved entry fills the form');
  await sendForm(page, lang, [name('s-glasshouse-space'), name('s-maze-item')], 'edit');
  assert.equal((await page.locator('h1').textContent())?.trim(), m.complete.updated);
  const statuses = (await page.getByTestId('status').allTextContents()).map((t) => t.trim());
  assert.deepEqual(statuses, [m.status.applied, m.status.applied]);
}

/** Runs `vmarket lottery <action> --event 2027Summer --round first` against the e2e database. */
function lottery(/** @type {string} */ action) {
  return execFileSync(VMARKET_BIN, ['lottery', action, '--event', EVENT, '--round', 'first'], {
    encoding: 'utf8',
    env: process.env,
  });
}

test('owners apply with two wishes, edit, and see the first draw in their entry history', { timeout: TEST_TIMEOUT_MS * 4 }, async () => {
  assert.ok(browser);
  assert.ok(STAFF.email, 'scripts/e2e creates the staff account');
  const exhibitor = await newPage(browser);
  const friend = await newPage(browser);
  const staff = await newPage(browser);
  let travelled = false;
  try {
    // Japanese: the demo exhibitor's ともしび工房.
    await exhibitor.page.goto(url('/mypage/events'));
    await signIn(exhibitor.page, EXHIBITOR, (p) => p === '/mypage/events');
    await applyAndEdit(exhibitor.page, 'ja', 'ともしび工房', false);

    // English: the friend's circle already applied in the demo data; a new one of theirs does.
    const circle = `Night Owls ${STAMP}`;
    const page = friend.page;
    await page.goto(url('/en/mypage/circle/new'));
    await signIn(page, FRIEND, (p) => p === '/en/mypage/circle/new');
    await page.getByTestId('circle-form').locator('#name_en').fill(circle);
    await Promise.all([page.waitForURL((u) => u.search.includes('done=created')), page.getByTestId('submit').click()]);
    await applyAndEdit(page, 'en', circle, true);

    // Staff: into the first draw's window, then the draw from the command line.
    const ev = await (await fetch(url(`/api/v1/events/14`))).json();
    const start = ev.event_phases.find((/** @type {any} */ p) => p.phase_type === 'first_lottery_start').phase_timestamp;
    const at = new Date(Date.parse(start) + 3_600_000).toISOString();
    await staff.page.goto(url('/admin'));
    await signIn(staff.page, STAFF, (p) => p === '/admin');
    await travel(staff.page, at);
    travelled = true;
    assert.match(lottery('commit'), /[0-9a-f]{64}/);
    lottery('preview');
    lottery('publish');

    // Each owner sees the outcome: the first wish won; the second lost for good (one win only:
    // it takes no part in the second draw) in Japanese, won for free (multiple-win) in English.
    for (const [p, lang, expected] of /** @type {const} */ ([
      [exhibitor.page, 'ja', ['first_win', 'lost']],
      [page, 'en', ['first_win', 'win']],
    ])) {
      const m = messages(lang).entries;
      const prefix = lang === 'en' ? '/en' : '';
      await p.goto(url(`${prefix}/mypage/entry_history/${EVENT}/apply`));
      const entry = lang === 'en' ? p.getByTestId('entry').filter({ hasText: circle }) : p.getByTestId('entry').filter({ hasText: 'ともしび工房' });
      const statuses = (await entry.getByTestId('status').allTextContents()).map((t) => t.trim());
      assert.deepEqual(statuses, expected.map((s) => m.status[s]), lang);
      assert.equal(await entry.getByTestId('edit').count(), 0, 'the entry window has closed');
      await photograph(p, `history-drawn-${lang}`);
    }

    // Anyone verifies the published draw from the file the event page links to.
    await exhibitor.page.goto(url(`/${EVENT}`));
    const download = await exhibitor.page.getByTestId('lottery-download').first().getAttribute('href');
    assert.ok(download);
    const file = join(mkdtempSync(join(tmpdir(), 'vmarket-draw-')), 'first.json');
    writeFileSync(file, await (await fetch(url(download))).text());
    const verified = execFileSync(VMARKET_BIN, ['lottery', 'verify', '--published', file], { encoding: 'utf8' });
    assert.match(verified, /^verified .* the seed matches its commitment/);

    // Into the first payment window: the exhibitor declines the win, after a confirmation.
    const payStart = ev.event_phases.find((/** @type {any} */ p) => p.phase_type === 'first_payment_start').phase_timestamp;
    await travel(staff.page, new Date(Date.parse(payStart) + 3_600_000).toISOString());
    {
      const p = exhibitor.page;
      const m = messages('ja').entries;
      await p.goto(url(`/mypage/entry_history/${EVENT}/apply`));
      const entry = p.getByTestId('entry').filter({ hasText: 'ともしび工房' });
      const href = /** @type {string} */ (await entry.getByTestId('decline').getAttribute('href'));
      await p.goto(url(`/en${href}`));
      assert.equal((await p.locator('h1').textContent())?.trim(), messages('en').entries.decline.heading);
      await photograph(p, 'decline-en');
      await p.goto(url(href));
      assert.match((await p.getByTestId('decline-warning').textContent()) ?? '', /ともしび工房/);
      await photograph(p, 'decline-ja');
      await Promise.all([p.waitForURL((u) => u.search.includes('done=declined')), p.getByTestId('confirm-decline').click()]);
      assert.equal((await p.getByTestId('done').textContent())?.trim(), m.done.declined);
      const declined = p.getByTestId('entry').filter({ hasText: 'ともしび工房' });
      const statuses = (await declined.getByTestId('status').allTextContents()).map((t) => t.trim());
      assert.deepEqual(statuses, [m.status.decline, m.status.lost]);
      assert.equal((await declined.getByTestId('lottery-type').textContent())?.trim(), m.type.lost);
      await photograph(p, 'history-declined-ja');
    }

    // The friend changes the AMP options of the first wish; a malformed id is refused beside it.
    {
      const p = page;
      const m = messages('en').entries;
      await p.goto(url(`/en/mypage/entry_history/${EVENT}/apply`));
      const entry = p.getByTestId('entry').filter({ hasText: circle });
      const href = /** @type {string} */ (await entry.getByTestId('amp').getAttribute('href'));
      await p.goto(url(href.replace(/^\/en/, '')));
      await photograph(p, 'amp-ja');
      await p.goto(url(href));
      assert.equal(await p.locator('#amp_id_1').inputValue(), `amp-${STAMP}`);
      await p.locator('#amp_id_1').fill('amp id');
      await Promise.all([p.waitForURL((u) => u.pathname.endsWith('/apply/amp')), p.getByTestId('save-amp').click()]);
      assert.equal((await p.locator('[data-field=amp_id_1]').textContent())?.trim(), messages('en').entries.validation.amp_id);
      assert.equal(await p.locator('#amp_id_1').inputValue(), 'amp id', 'what was typed is kept');
      await photograph(p, 'amp-error-en');
      await p.locator('#amp_id_1').fill(`amp2-${STAMP}`);
      await p.locator('input[name=free_submission_2]').check();
      await Promise.all([p.waitForURL((u) => u.search.includes('done=amp_updated')), p.getByTestId('save-amp').click()]);
      assert.equal((await p.getByTestId('done').textContent())?.trim(), m.done.amp_updated);
      const saved = p.getByTestId('entry').filter({ hasText: circle });
      assert.match((await saved.locator('code').first().textContent()) ?? '', new RegExp(`amp2-${STAMP}`));
      await photograph(p, 'history-amp-en');
    }
    assert.deepEqual([...exhibitor.errors, ...friend.errors, ...staff.errors], [], 'uncaught page errors');
  } finally {
    if (travelled) await travel(staff.page, null);
    await exhibitor.close();
    await friend.close();
    await staff.close();
  }
});
