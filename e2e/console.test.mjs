/**
 * The staff console's stories, against the real server (scripts/e2e creates the staff accounts):
 * - an admin creates an event with phases, a concept and a world (with a picture uploaded from
 *   the form; a file that is no picture is refused beside its field) in the console (Japanese)
 *   and sees them on the public site; suspends a circle with a bulk action and lifts it again;
 *   every resource's list (every menu entry) is screenshotted in both languages;
 * - a director (switching the console to English) has no users menu and is refused the page;
 * - a QA tester entering at /en/admin travels to the start of 2026Winter's event_open phase and
 *   the catalogue unlocks, then comes back to real time and it locks again.
 * One browser; the time travel is undone in `finally` (it moves the whole server's clock).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import {
  DIRECTOR,
  QA_TESTER,
  STAFF,
  TEST_TIMEOUT_MS,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  solidPng,
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

/**
 * Picks `option` in the select input named `name`.
 * @param {import('playwright-core').Page} page @param {string} name @param {string} option
 */
async function choose(page, name, option) {
  await page.locator('.MuiInputBase-root', { has: page.locator(`input[name="${name}"]`) }).locator('[role="combobox"]').click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Types `text` into the autocomplete labelled `label` and picks `option`.
 * @param {import('playwright-core').Page} page @param {string} label @param {string} text @param {string} option
 */
async function pick(page, label, text, option) {
  await page.getByRole('combobox', { name: label, exact: true }).fill(text);
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * Saves the form and waits for the record's show page; returns its id.
 * @param {import('playwright-core').Page} page @param {string} resource
 */
async function saveAndShow(page, resource) {
  await Promise.all([
    page.waitForURL((u) => new RegExp(`^/admin/${resource}/\\d+/show$`).test(u.pathname), { timeout: 20_000 }),
    page.locator('form button[type="submit"]').first().click(),
  ]);
  return Number(new URL(page.url()).pathname.split('/')[3]);
}

/**
 * Switches the console's language through the app bar.
 * @param {import('playwright-core').Page} page @param {string} from @param {string} to
 */
async function switchLanguage(page, from, to) {
  await page.getByRole('button', { name: from }).first().click();
  await page.getByRole('menuitem', { name: to }).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, to === 'English' ? 'en' : 'ja');
}

/**
 * Opens each resource's list through the menu (client-side, no reloads) and screenshots it:
 * every menu entry but the time-travel page. Returns the resources seen.
 * @param {import('playwright-core').Page} page @param {string} lang
 */
async function screenshotLists(page, lang) {
  const hrefs = await page
    .locator('.RaMenu-open a[href^="/admin/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  const names = hrefs.map((h) => h.replace('/admin/', '')).filter((n) => n !== '' && n !== 'time_travel');
  for (const name of names) {
    await page.locator(`a[href="/admin/${name}"]`).first().click();
    await page.waitForURL((u) => u.pathname === `/admin/${name}`);
    await page
      .locator('table tbody tr, .RaEmpty-message, .RaList-noResults')
      .first()
      .waitFor({ timeout: 20_000 })
      .catch(async (err) => {
        await screenshot(page, `console-${lang}-${name}-failed.png`, false);
        throw new Error(`the ${name} list did not render (${lang}): ${err}`);
      });
    await screenshot(page, `console-${lang}-${name}.png`, false);
  }
  return names;
}

test('an admin creates an event with phases, a concept and a world; the public site shows them', { timeout: 240_000 }, async () => {
  assert.ok(browser);
  assert.ok(STAFF.email, 'scripts/e2e creates the staff account');
  const { page, errors, close } = await newPage(browser);
  const stamp = Date.now().toString(36);
  const permalink = `e2e${stamp}`;
  try {
    await page.goto(url('/admin/events/create'));
    await signIn(page, STAFF, (path) => path === '/admin/events/create');
    await page.locator('input[name="permalink"]').waitFor();
    assert.equal(await page.locator('h1').count(), 1, 'the page title is its h1');

    // The server's validation shows beside the field: a permalink with a slash.
    await page.locator('input[name="permalink"]').fill('bad/permalink');
    await page.locator('input[name="version"]').fill('1');
    await page.locator('input[name="name_ja"]').fill(`E2E 冬 ${stamp}`);
    await page.locator('input[name="name_en"]').fill(`E2E Winter ${stamp}`);
    await page.locator('input[name="is_public"]').check();
    await page.locator('.button-add').first().click();
    await choose(page, 'phases.0.phase_type', '出展エントリー開始');
    await page.locator('input[name="phases.0.phase_timestamp"]').fill('2027-01-10T10:00');
    await page.locator('.button-add').first().click();
    await choose(page, 'phases.1.phase_type', '会期開始');
    await page.locator('input[name="phases.1.phase_timestamp"]').fill('2027-03-01T12:00');
    await page.locator('form button[type="submit"]').first().click();
    const fieldError = page.locator('.MuiFormControl-root', { has: page.locator('input[name="permalink"]') }).locator('.MuiFormHelperText-root');
    await fieldError.waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      (el) => (el?.textContent ?? '').trim().length > 1,
      await fieldError.elementHandle(),
    );
    await screenshot(page, 'console-event-invalid.png');

    await page.locator('input[name="permalink"]').fill(permalink);
    const eventId = await saveAndShow(page, 'events');
    // The show page lists the phases, in Japan time.
    const phases = page.locator('.RaShow-main table');
    await phases.getByText('2027/03/01 12:00').waitFor();
    await phases.getByText('2027/01/10 10:00').waitFor();
    assert.ok(((await phases.textContent()) ?? '').includes('出展エントリー開始'));
    await screenshot(page, 'console-event-show.png');

    await page.goto(url('/admin/concepts/create'));
    await pick(page, 'イベント', `E2E 冬 ${stamp}`, `E2E 冬 ${stamp}`);
    await page.locator('input[name="name_ja"]').fill(`E2E コンセプト ${stamp}`);
    await page.locator('input[name="name_en"]').fill(`E2E Concept ${stamp}`);
    await choose(page, 'platform', 'PC');
    await choose(page, 'venue', 'VRChat');
    await choose(page, 'kind', '一般');
    await saveAndShow(page, 'concepts');

    await page.goto(url('/admin/worlds/create'));
    await pick(page, 'コンセプト', `E2E コンセプト ${stamp}`, `E2E コンセプト ${stamp}`);
    await page.locator('input[name="name_ja"]').fill(`E2E ワールド ${stamp}`);
    await page.locator('input[name="name_en"]').fill(`E2E World ${stamp}`);
    await choose(page, 'exhibition_platform', 'PC');
    await choose(page, 'venue', 'VRChat');
    // A file that is not a picture: the server's reason appears beside the picture field.
    const picture = page.getByLabel('画像：画像を選ぶ（ドロップもできます）');
    await picture.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.locator('form button[type="submit"]').first().click();
    const pictureError = page.locator('.ra-input-image .MuiFormHelperText-root.Mui-error');
    await pictureError.waitFor({ timeout: 15_000 });
    assert.match((await pictureError.textContent()) ?? '', /PNG/);
    await screenshot(page, 'console-world-picture-refused.png');
    // Then a real picture, uploaded when the form is saved.
    await page.locator('.ra-input-image .RaFileInputPreview-removeButton').click();
    await picture.setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: solidPng(64, 36) });
    const worldId = await saveAndShow(page, 'worlds');
    const shown = await page.locator('.RaShow-main img').first().getAttribute('src');
    assert.match(shown ?? '', /^\/media\/admin\/worlds\/image\/[0-9a-f]+\.png$/);

    // The public site shows the new event's concept and world.
    const res = await page.goto(url(`/${permalink}/worlds`));
    assert.equal(res?.status(), 200);
    const body = (await page.locator('main').textContent()) ?? '';
    assert.ok(body.includes(`E2E コンセプト ${stamp}`), 'concept on the public worlds page');
    assert.ok(body.includes(`E2E ワールド ${stamp}`), 'world on the public worlds page');
    await screenshot(page, 'console-public-worlds.png');
    await page.goto(url(`/${permalink}/world/${worldId}`));
    assert.equal(await page.locator(`img[src="${shown}"]`).count(), 1, 'the uploaded picture on the world page');

    // A bulk action: suspend a circle from its list, then lift the suspension.
    await page.goto(url(`/admin/circles?filter=${encodeURIComponent(JSON.stringify({ q: 'くじら便' }))}`));
    const row = page.locator('table tbody tr').first();
    await row.waitFor();
    assert.equal(await page.locator('table tbody tr').count(), 1);
    for (const [action, suspended] of /** @type {const} */ ([['利用停止にする', true], ['利用停止を解除', false]])) {
      await row.locator('input[type="checkbox"]').check();
      await page.getByRole('button', { name: action }).click();
      await page.getByRole('dialog').getByRole('button', { name: '確認' }).click();
      await page.waitForFunction(
        async (want) => {
          const res = await fetch('/admin/api/circles?filter=' + encodeURIComponent(JSON.stringify({ q: 'くじら便' })));
          return (await res.json())[0]?.is_suspended === want;
        },
        suspended,
        { timeout: 15_000, polling: 250 },
      );
      if (suspended) await screenshot(page, 'console-circle-suspended.png', false);
    }

    // The event list finds it by search and exports the shown columns as CSV.
    await page.goto(url(`/admin/events?filter=${encodeURIComponent(JSON.stringify({ q: permalink }))}`));
    await page.locator(`table tbody tr`).first().waitFor();
    assert.equal(await page.locator('table tbody tr').count(), 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'エクスポート' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.replace(/^\ufeff/, '').trim().split('\r\n');
    assert.equal(lines[0], 'ID,パーマリンク,バージョン,名前（日本語）,名前（英語）,公開,エントリー締切済み,フェーズ,更新日時');
    assert.equal(lines.length, 2);
    assert.ok(lines[1]?.startsWith(`${eventId},${permalink},1,E2E 冬 ${stamp},E2E Winter ${stamp},true,false,2,`), lines[1]);
    assert.ok(eventId > 0);

    // Every list renders, in both languages (the events list without its search).
    await page.goto(url('/admin/events?filter=%7B%7D'));
    await page.locator('table tbody tr').first().waitFor();
    const listed = await screenshotLists(page, 'ja');
    for (const name of ['events', 'keywords', 'artists', 'entry_plans', 'entries', 'applications', 'lottery_runs', 'payments', 'users', 'audit_log']) {
      assert.ok(listed.includes(name), `${name} in the admin's menu`);
    }
    await switchLanguage(page, '日本語', 'English');
    assert.deepEqual(await screenshotLists(page, 'en'), listed);
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});

test('a director has no users menu and is refused the users page (English console)', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  assert.ok(DIRECTOR.email, 'scripts/e2e creates the director');
  const { page, close } = await newPage(browser);
  try {
    await page.goto(url('/admin'));
    await signIn(page, DIRECTOR, (path) => path === '/admin');
    await page.getByTestId('admin-ready').waitFor();
    await switchLanguage(page, '日本語', 'English');
    await page.locator('a[href="/admin/events"]').first().waitFor();
    assert.equal(await page.locator('a[href="/admin/users"]').count(), 0, 'no users menu item');
    assert.equal(await page.locator('a[href="/admin/time_travel"]').count(), 1, 'directors may travel');

    await page.goto(url('/admin/users'));
    await page.getByText("You don't have the right permissions to access this page").waitFor();
    assert.equal(await page.locator('table').count(), 0);
    const status = await page.evaluate(async () => (await fetch('/admin/api/users')).status);
    assert.equal(status, 403, 'the server refuses too');
    await screenshot(page, 'console-director-users-refused.png');
  } finally {
    await close();
  }
});

test('a QA tester travels to event_open and the catalogue unlocks, then back', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  assert.ok(QA_TESTER.email, 'scripts/e2e creates the QA tester');
  const { page, close } = await newPage(browser);
  let travelled = false;
  try {
    assert.equal(
      (await page.goto(url('/2026Winter/catalog')))?.status(),
      200,
    );
    await page.getByTestId('catalog-locked').waitFor();

    // Entering at /en/admin: the English console (this address used to be blank).
    await page.goto(url('/en/admin/time_travel'));
    await signIn(page, QA_TESTER, (path) => path.endsWith('/admin/time_travel'));
    await page.getByTestId('clock-status').waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/time_travel');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    assert.match((await page.getByTestId('clock-site').textContent()) ?? '', /real time/);

    // Pick 2026Winter and jump to the start of its event_open phase.
    const select = page.getByRole('combobox').first();
    await select.click();
    await page.getByRole('option', { name: 'Virtual Market 2026 Winter', exact: true }).click();
    travelled = true;
    await page.getByTestId('jump-event_open').click();
    await page.getByTestId('clock-banner').waitFor();
    assert.match((await page.getByTestId('clock-site').textContent()) ?? '', /Site time/);
    await screenshot(page, 'console-time-travel.png');

    await page.goto(url('/2026Winter/catalog'));
    await page.getByTestId('catalog-search').waitFor();
    assert.equal(await page.getByTestId('catalog-locked').count(), 0, 'the catalogue is open');
    assert.equal(await page.getByTestId('time-travel-banner').count(), 1, 'the public page says the site is travelled');
    await screenshot(page, 'console-time-travel-catalog-open.png');

    await page.goto(url('/admin/time_travel'));
    await page.getByTestId('time-travel-back').click();
    await page.getByTestId('clock-banner').waitFor({ state: 'detached' });
    travelled = false;
    await page.goto(url('/2026Winter/catalog'));
    await page.getByTestId('catalog-locked').waitFor();
  } finally {
    if (travelled) {
      // Never leave the shared server travelled.
      await page.evaluate(async () => {
        const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
        await fetch('/api/v1/admin/time_travel', { method: 'DELETE', headers: { 'X-CSRF-Token': csrf } });
      });
    }
    await close();
  }
});
