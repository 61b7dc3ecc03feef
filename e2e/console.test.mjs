/**
 * The staff console's stories, against the real server (scripts/e2e creates the staff accounts),
 * each told once in Japanese and once in English (the console's language, every label looked up
 * in the catalogues the console itself shows):
 * - an admin creates an event with phases, a concept and a world (with a picture uploaded from
 *   the form; a file that is no picture is refused beside its field) and sees them on the public
 *   site in that language; is refused deleting the event while they use it, with the message
 *   naming them; suspends a circle on its edit page with a reason and lifts it again; exports
 *   the event list as CSV with the language's column names; every resource's list (every menu
 *   entry) is screenshotted in that language;
 * - an admin makes an avatar part of the demo's hair bundle; the avatar maker's list offers it;
 * - a director has no users menu and is refused the page;
 * - a QA tester travels to the start of 2026Winter's event_open phase and the catalogue unlocks,
 *   then comes back to real time and it locks again.
 * One browser and one server for all; the time travel is undone in `finally` (it moves the whole
 * server's clock).
 */
// e2e-schedule: shared-write — creates events, suspends a circle, travels the clock (scripts/e2e)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import {
  DIRECTOR,
  QA_TESTER,
  STAFF,
  TEST_TIMEOUT_MS,
  TIME_FACTOR,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  solidPng,
  url,
} from './support.mjs';

/** @param {string} lang */
const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
const ja = catalogue('ja');
const en = catalogue('en');

/** The console's languages: the site's catalogues, react-admin's own words the stories click. */
const LANGS = /** @type {const} */ ([
  {
    lang: 'ja',
    name: '日本語',
    t: ja,
    ra: { confirm: '確認', export: 'エクスポート', delete: '削除', accessDenied: 'このページにアクセスする権限がありません' },
  },
  {
    lang: 'en',
    name: 'English',
    t: en,
    ra: { confirm: 'Confirm', export: 'Export', delete: 'Delete', accessDenied: "You don't have the right permissions to access this page" },
  },
]);

/**
 * The catalogue's text at `key` (dotted) with `{name}` placeholders filled.
 * @param {any} catalogue @param {string} key @param {Record<string, string | number>} [args]
 */
function tr(catalogue, key, args = {}) {
  const text = key.split('.').reduce((node, part) => node?.[part], catalogue);
  assert.equal(typeof text, 'string', `${key} in the catalogue`);
  return Object.entries(args).reduce((out, [k, v]) => out.replaceAll(`{${k}}`, String(v)), /** @type {string} */ (text));
}

/**
 * An instant as the console shows it in `lang` (Japan time; `2027/03/01 12:00`, `1 Mar 2027, 12:00`).
 * @param {string} iso @param {string} lang
 */
function jst(iso, lang) {
  const en = lang === 'en';
  const options = /** @type {const} */ ({
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: en ? 'short' : '2-digit',
    day: en ? 'numeric' : '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return new Intl.DateTimeFormat(en ? 'en-GB' : 'ja-JP', options).format(new Date(iso));
}

/**
 * A pattern matching the catalogue's text at `key` whatever its placeholders hold.
 * @param {any} catalogue @param {string} key
 */
function shape(catalogue, key) {
  const text = tr(catalogue, key);
  const parts = text.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

/**
 * Opens `path` of the console in `lang` (a new browser context starts in Japanese; `/en/admin…`
 * opens it in English) and signs in as `account`.
 * @param {import('playwright-core').Page} page @param {string} lang @param {string} path
 * @param {{ email: string, password: string }} account
 */
async function openConsole(page, lang, path, account) {
  await page.goto(url(lang === 'en' ? `/en${path}` : path));
  await signIn(page, account, (p) => p === path);
  await page.waitForFunction((want) => document.documentElement.lang === want, lang);
}

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

for (const { lang, name: langName, t, ra } of LANGS) {
  const field = (/** @type {string} */ resource, /** @type {string} */ f) => tr(t, `admin.resources.${resource}.fields.${f}`);

  test(`an admin creates an event with phases, a concept and a world; the public site shows them (${lang})`, { timeout: 240_000 * TIME_FACTOR }, async () => {
    assert.ok(browser);
    assert.ok(STAFF.email, 'scripts/e2e creates the staff account');
    const { page, errors, close } = await newPage(browser);
    const stamp = `${lang}${Date.now().toString(36)}`;
    const permalink = `e2e${stamp}`;
    const eventName = lang === 'en' ? `E2E Winter ${stamp}` : `E2E 冬 ${stamp}`;
    const conceptName = lang === 'en' ? `E2E Concept ${stamp}` : `E2E コンセプト ${stamp}`;
    const worldName = lang === 'en' ? `E2E World ${stamp}` : `E2E ワールド ${stamp}`;
    try {
      await openConsole(page, lang, '/admin/events/create', STAFF);
      await page.locator('input[name="permalink"]').waitFor();
      assert.equal(await page.locator('h1').count(), 1, 'the page title is its h1');

      // The server's validation shows beside the field: a permalink with a slash.
      await page.locator('input[name="permalink"]').fill('bad/permalink');
      await page.locator('input[name="version"]').fill('1');
      await page.locator('input[name="name_ja"]').fill(`E2E 冬 ${stamp}`);
      await page.locator('input[name="name_en"]').fill(`E2E Winter ${stamp}`);
      await page.locator('input[name="is_public"]').check();
      await page.locator('.button-add').first().click();
      await choose(page, 'phases.0.phase_type', tr(t, 'phases.entry_start'));
      await page.locator('input[name="phases.0.phase_timestamp"]').fill('2027-01-10T10:00');
      await page.locator('.button-add').first().click();
      await choose(page, 'phases.1.phase_type', tr(t, 'phases.event_open'));
      await page.locator('input[name="phases.1.phase_timestamp"]').fill('2027-03-01T12:00');
      await page.locator('form button[type="submit"]').first().click();
      const fieldError = page.locator('.MuiFormControl-root', { has: page.locator('input[name="permalink"]') }).locator('.MuiFormHelperText-root');
      await fieldError.waitFor({ timeout: 15_000 });
      await page.waitForFunction((el) => (el?.textContent ?? '').trim().length > 1, await fieldError.elementHandle());
      assert.equal(((await fieldError.textContent()) ?? '').trim(), tr(t, 'validation.permalink'));
      await screenshot(page, `console-${lang}-event-invalid.png`);

      await page.locator('input[name="permalink"]').fill(permalink);
      const eventId = await saveAndShow(page, 'events');
      // The show page lists the phases, in Japan time.
      const phases = page.locator('.RaShow-main table');
      await phases.getByText(jst('2027-03-01T12:00:00+09:00', lang)).waitFor();
      await phases.getByText(jst('2027-01-10T10:00:00+09:00', lang)).waitFor();
      assert.ok(((await phases.textContent()) ?? '').includes(tr(t, 'phases.entry_start')));
      await screenshot(page, `console-${lang}-event-show.png`);

      await page.goto(url('/admin/concepts/create'));
      await pick(page, field('concepts', 'event_id'), `E2E 冬 ${stamp}`, lang === 'en' ? `E2E Winter ${stamp}` : `E2E 冬 ${stamp}`);
      await page.locator('input[name="name_ja"]').fill(`E2E コンセプト ${stamp}`);
      await page.locator('input[name="name_en"]').fill(`E2E Concept ${stamp}`);
      await choose(page, 'platform', tr(t, 'platforms.pc'));
      await choose(page, 'venue', tr(t, 'venues.vrc'));
      await choose(page, 'kind', tr(t, 'admin.choices.concept_kind.general'));
      await saveAndShow(page, 'concepts');

      await page.goto(url('/admin/worlds/create'));
      await pick(page, field('worlds', 'concept_id'), `E2E Concept ${stamp}`, conceptName);
      await page.locator('input[name="name_ja"]').fill(`E2E ワールド ${stamp}`);
      await page.locator('input[name="name_en"]').fill(`E2E World ${stamp}`);
      await choose(page, 'exhibition_platform', tr(t, 'platforms.pc'));
      await choose(page, 'venue', tr(t, 'venues.vrc'));
      // A file that is not a picture: the server's reason appears beside the picture field.
      const picture = page.getByLabel(tr(t, 'admin.images.choose', { field: field('worlds', 'image') }));
      await picture.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
      await page.locator('form button[type="submit"]').first().click();
      const pictureError = page.locator('.ra-input-image .MuiFormHelperText-root.Mui-error');
      await pictureError.waitFor({ timeout: 15_000 });
      assert.match((await pictureError.textContent()) ?? '', /PNG/);
      await screenshot(page, `console-${lang}-world-picture-refused.png`);
      // Then a real picture, uploaded when the form is saved.
      await page.locator('.ra-input-image .RaFileInputPreview-removeButton').click();
      await picture.setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: solidPng(64, 36) });
      const worldId = await saveAndShow(page, 'worlds');
      const shown = await page.locator('.RaShow-main img').first().getAttribute('src');
      assert.match(shown ?? '', /^\/media\/admin\/worlds\/image\/[0-9a-f]+\.png$/);

      // The event cannot be deleted while its concept and world use it: the console says so,
      // naming them, and the event stays.
      await page.goto(url(`/admin/events?filter=${encodeURIComponent(JSON.stringify({ q: permalink }))}`));
      const eventRow = page.locator('table tbody tr').first();
      await eventRow.waitFor();
      await eventRow.locator('input[type="checkbox"]').check();
      await page.getByRole('button', { name: ra.delete, exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: ra.confirm }).click();
      const uses = tr(t, 'errors.uses_separator');
      const named = [
        tr(t, 'errors.use_count', { what: tr(t, 'admin.resources.concepts.name'), count: 1 }),
        tr(t, 'errors.use_count', { what: tr(t, 'admin.resources.worlds.name'), count: 1 }),
      ].join(uses);
      const refusal = tr(t, 'errors.used_by', { message: tr(t, 'errors.event_not_empty'), uses: named });
      await page.getByText(refusal, { exact: true }).waitFor({ timeout: 15_000 });
      await screenshot(page, `console-${lang}-event-delete-refused.png`, false);
      assert.equal(await page.evaluate(async (id) => (await fetch(`/admin/api/events/${id}`)).status, eventId), 200, 'the event stays');
      await eventRow.locator('input[type="checkbox"]').uncheck();

      // The public site shows the new event's concept and world, in the story's language.
      const prefix = lang === 'en' ? '/en' : '';
      const res = await page.goto(url(`${prefix}/${permalink}/worlds`));
      assert.equal(res?.status(), 200);
      const body = (await page.locator('main').textContent()) ?? '';
      assert.ok(body.includes(conceptName), 'concept on the public worlds page');
      assert.ok(body.includes(worldName), 'world on the public worlds page');
      await screenshot(page, `console-${lang}-public-worlds.png`);
      await page.goto(url(`${prefix}/${permalink}/world/${worldId}`));
      assert.equal(await page.locator(`img[src="${shown}"]`).count(), 1, 'the uploaded picture on the world page');

      // Staff suspend a circle on its edit page with the reason its owner is mailed, then lift it.
      const circle = await page.evaluate(async () => {
        const res = await fetch('/admin/api/circles?filter=' + encodeURIComponent(JSON.stringify({ q: 'くじら便' })));
        return (await res.json())[0];
      });
      assert.ok(circle, 'the demo circle くじら便');
      const reason = lang === 'en' ? 'Checking a report about its items.' : '出品物についての通報を確認しています。';
      for (const suspended of [true, false]) {
        await page.goto(url(`/admin/circles/${circle.id}`));
        const box = page.locator('input[name="is_suspended"]');
        await box.waitFor();
        if (suspended) {
          await box.check();
          await page.locator('textarea[name="suspension_reason"]').fill(reason);
        } else {
          await box.uncheck();
        }
        await saveAndShow(page, 'circles');
        await page.waitForFunction(
          async ([id, want]) => (await (await fetch(`/admin/api/circles/${id}`)).json()).is_suspended === want,
          [circle.id, suspended],
          { timeout: 15_000, polling: 250 },
        );
        if (suspended) {
          await page.getByText(reason).first().waitFor();
          await screenshot(page, `console-${lang}-circle-suspended.png`, false);
        }
      }

      // The event list finds it by search and exports the shown columns as CSV.
      await page.goto(url(`/admin/events?filter=${encodeURIComponent(JSON.stringify({ q: permalink }))}`));
      await page.locator(`table tbody tr`).first().waitFor();
      assert.equal(await page.locator('table tbody tr').count(), 1);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: ra.export }).click(),
      ]);
      const csv = readFileSync(await download.path(), 'utf8');
      const lines = csv.replace(/^\ufeff/, '').trim().split('\r\n');
      const columns = ['id', 'permalink', 'version', 'name_ja', 'name_en', 'is_public', 'is_entry_closed', 'phases', 'updated_at'];
      assert.equal(lines[0], columns.map((c) => field('events', c)).join(','));
      if (lang === 'ja') assert.equal(lines[0], 'ID,パーマリンク,バージョン,名前（日本語）,名前（英語）,公開,エントリー締切済み,フェーズ,更新日時');
      assert.equal(lines.length, 2);
      assert.ok(lines[1]?.startsWith(`${eventId},${permalink},1,E2E 冬 ${stamp},E2E Winter ${stamp},true,false,2,`), lines[1]);
      assert.ok(eventId > 0);

      // Every list renders (the events list without its search).
      await page.goto(url('/admin/events?filter=%7B%7D'));
      await page.locator('table tbody tr').first().waitFor();
      const listed = await screenshotLists(page, lang);
      for (const name of ['events', 'keywords', 'artists', 'entry_plans', 'entries', 'applications', 'lottery_runs', 'payments', 'users', 'audit_log']) {
        assert.ok(listed.includes(name), `${name} in the admin's menu`);
      }
      assert.equal(await page.locator('html').getAttribute('lang'), lang, `the console stayed in ${langName}`);
      assert.deepEqual(errors, [], 'uncaught page errors');
    } finally {
      await close();
    }
  });

  test(`an admin makes an avatar part of a demo bundle; the avatar maker offers it (${lang})`, { timeout: TEST_TIMEOUT_MS }, async () => {
    assert.ok(browser);
    const { page, errors, close } = await newPage(browser);
    const name = `E2E part ${lang}${Date.now().toString(36)}`;
    try {
      // The demo's short bob names the bundle asset the new part is made of.
      await openConsole(page, lang, '/admin/avatar_parts', STAFF);
      const bob = page.locator('.RaDatagrid-row').filter({ hasText: 'ショートボブ' }).first();
      await Promise.all([page.waitForURL(/\/admin\/avatar_parts\/\d+\/show$/), bob.click()]);
      const bundle = ((await page.locator('.ra-field-asset_id').first().innerText()).match(/\d+/) ?? [''])[0];
      assert.ok(bundle, 'the bundle asset id is shown');

      await page.goto(url('/admin/avatar_parts/create'));
      await page.locator('input[name="name"]').fill(name);
      await choose(page, 'part_type', tr(t, 'avatar_parts.part_type.tops'));
      await page.locator('input[name="asset_id"]').fill(bundle);
      await page.locator('input[name="published"]').check();
      await saveAndShow(page, 'avatar_parts');
      await screenshot(page, `console-${lang}-avatar-part.png`);
      const listed = await page.request.get(url('/api/v1/store/avatar_parts?avatar_maker_version=1'));
      assert.equal(listed.status(), 200);
      const parts = /** @type {{ name: string, part_type: string, available: boolean }[]} */ (await listed.json());
      const made = parts.find((p) => p.name === name);
      assert.deepEqual(made && [made.part_type, made.available], ['tops', true], JSON.stringify(parts));
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test(`a director has no users menu and is refused the users page (${lang})`, { timeout: TEST_TIMEOUT_MS }, async () => {
    assert.ok(browser);
    assert.ok(DIRECTOR.email, 'scripts/e2e creates the director');
    const { page, close } = await newPage(browser);
    try {
      await openConsole(page, lang, '/admin', DIRECTOR);
      await page.getByTestId('admin-ready').waitFor();
      await page.locator('a[href="/admin/events"]').first().waitFor();
      assert.equal(await page.locator('a[href="/admin/users"]').count(), 0, 'no users menu item');
      assert.equal(await page.locator('a[href="/admin/time_travel"]').count(), 1, 'directors may travel');

      await page.goto(url('/admin/users'));
      await page.getByText(ra.accessDenied).waitFor();
      assert.equal(await page.locator('table').count(), 0);
      const status = await page.evaluate(async () => (await fetch('/admin/api/users')).status);
      assert.equal(status, 403, 'the server refuses too');
      await screenshot(page, `console-${lang}-director-users-refused.png`);
      // The language menu turns the console into the other language, menus and all.
      const other = LANGS.find((l) => l.lang !== lang);
      assert.ok(other);
      await switchLanguage(page, langName, other.name);
      await page.waitForFunction(
        (name) => Array.from(document.querySelectorAll('a[href="/admin/events"]')).some((a) => (a.textContent ?? '').includes(name)),
        tr(other.t, 'admin.resources.events.name'),
      );
      assert.equal(await page.locator('a[href="/admin/users"]').count(), 0, 'still no users menu item');
    } finally {
      await close();
    }
  });

  test(`a QA tester travels to event_open and the catalogue unlocks, then back (${lang})`, { timeout: TEST_TIMEOUT_MS }, async () => {
    assert.ok(browser);
    assert.ok(QA_TESTER.email, 'scripts/e2e creates the QA tester');
    const { page, close } = await newPage(browser);
    const prefix = lang === 'en' ? '/en' : '';
    let travelled = false;
    try {
      assert.equal((await page.goto(url(`${prefix}/2026Winter/catalog`)))?.status(), 200);
      await page.getByTestId('catalog-locked').waitFor();

      await openConsole(page, lang, '/admin/time_travel', QA_TESTER);
      await page.getByTestId('clock-status').waitFor();
      assert.equal(new URL(page.url()).pathname, '/admin/time_travel');
      assert.match((await page.getByTestId('clock-site').textContent()) ?? '', shape(t, 'admin.time_travel.real_time'));

      // Pick 2026Winter and jump to the start of its event_open phase.
      const select = page.getByRole('combobox').first();
      await select.click();
      const winter = lang === 'en' ? 'Virtual Market 2026 Winter' : 'バーチャルマーケット2026 Winter';
      await page.getByRole('option', { name: winter, exact: true }).click();
      travelled = true;
      await page.getByTestId('jump-event_open').click();
      await page.getByTestId('clock-banner').waitFor();
      assert.match((await page.getByTestId('clock-site').textContent()) ?? '', shape(t, 'admin.time_travel.travelled'));
      await screenshot(page, `console-${lang}-time-travel.png`);

      await page.goto(url(`${prefix}/2026Winter/catalog`));
      await page.getByTestId('catalog-search').waitFor();
      assert.equal(await page.getByTestId('catalog-locked').count(), 0, 'the catalogue is open');
      assert.equal(await page.getByTestId('time-travel-banner').count(), 1, 'the public page says the site is travelled');
      await screenshot(page, `console-${lang}-time-travel-catalog-open.png`);

      await page.goto(url('/admin/time_travel'));
      await page.getByTestId('time-travel-back').click();
      await page.getByTestId('clock-banner').waitFor({ state: 'detached' });
      travelled = false;
      await page.goto(url(`${prefix}/2026Winter/catalog`));
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
}
