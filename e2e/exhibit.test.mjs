/**
 * After the win (issue 28's "done when"), in a real browser, once in Japanese (`/…`) and once in
 * English (`/en/…`): the demo exhibitor opens the 2026Winter checklist (hub) of its paid slot
 * (ともしび工房), adds a catalogue item from the hub's link, uploads a booth package through the
 * booth maker (a Unity project's files in a ZIP: its check passes) and submits it from the
 * slot's submission page; a staff member (the demo admin) marks it `needs_fix` with a reason in
 * the console (`slot_submissions`); the exhibitor reads the reason on the submission page,
 * uploads a fixed package and submits again; staff mark it `passed` during inspection. The
 * hub's steps follow every turn — submitted, waiting, needs fix, waiting, done — and the clock,
 * moved by the console's time-travel API, walks the phases: submission window → inspection →
 * catalog_open (the catalogue's "add" link is gone) → event_open (every step done). Steps are
 * read by `data-testid`/`data-state` and by their labels in the language's catalogue
 * (locales/*.json). Screenshots of the hub at 1280 and 390 px (nothing wider than 390 px), of
 * the catalogue, the submission page and the console's edit form.
 *
 * Date-independent: each language starts by travelling to 2026-11-20T00:00:00Z (inside
 * 2026Winter's submission window in the demo calendar, src/seed/data/events.json) and moves
 * forward from there; `finally` comes back to real time. The exhibitor owns one 2026Winter slot
 * (src/exhibit/demo.rs; the other one it sees is a member's, where only the owner submits), so
 * both languages use it and the flow is repeatable: each run adds an item and two submissions
 * (numbers go on) and ends with the newest passed, as it started.
 */
// e2e-schedule: private — travels the clock back and forth and adds submissions: a demo server of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';

import { TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, signIn, travel, url } from './support.mjs';

const DEMO_PASSWORD = 'vmarket-demo-2026';
const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
const ADMIN = { email: 'admin@demo.vmarket.test', password: DEMO_PASSWORD };
const EVENT = '2026Winter';
/** The circle of the exhibitor's paid 2026Winter slot (src/seed/data/circles.json). */
const CIRCLE = { ja: 'ともしび工房', en: 'Tomoshibi Works' };
/** Instants of 2026Winter's demo calendar the story visits (UTC). */
const AT = {
  submission: '2026-11-20T00:00:00Z', // submission window (2026-10-25 03:00 – 2026-11-30 14:59)
  inspection: '2026-12-02T00:00:00Z', // inspection (2026-12-01 03:00 – 2026-12-10 03:00)
  catalogOpen: '2026-12-10T04:00:00Z', // catalog_open 2026-12-10 03:00: item edits closed
  eventOpen: '2026-12-12T04:00:00Z', // event_open 2026-12-12 03:00
};
const STEPS = ['paid', 'catalog', 'submitted', 'inspected', 'event_open'];
const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;

/** @param {string} lang @returns {any} */
function messages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}
const CATALOGUES = { ja: messages('ja'), en: messages('en') };

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * A ZIP of `files`, stored (not compressed): enough for the booth-package check, which lists
 * the archive (src/assets/analyse/archive.rs) and checks paths and kinds.
 * @param {Record<string, string>} files
 */
function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const path = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(path.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(path.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, path, data);
    centrals.push(central, path);
    offset += local.length + path.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = Object.keys(files).length;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A booth package (a Unity project's files, as the demo's): its check passes. @param {string} note */
function boothPackage(note) {
  return zip({
    'Assets/Booth/Booth.prefab': '%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: Booth\n',
    'Assets/Booth/Materials/Lantern.mat': '%YAML 1.1\n',
    'Assets/Booth/README.txt': note,
  });
}

/**
 * The story in one language.
 * @param {'ja' | 'en'} lang
 */
async function story(lang) {
  assert.ok(browser);
  const t = CATALOGUES[lang];
  const prefix = lang === 'en' ? '/en' : '';
  const base = `${prefix}/mypage/entry_history/${EVENT}`;
  const hubPath = `${base}/hub`;
  const exhibitor = await newPage(browser);
  const staff = await newPage(browser);
  const page = exhibitor.page;
  const admin = staff.page;
  let travelled = false;
  try {
    // Staff open the console (in the story's language) and travel into the submission window.
    await admin.goto(url(`${prefix}/admin`));
    await signIn(admin, ADMIN, (p) => p === '/admin');
    await admin.waitForFunction((want) => document.documentElement.lang === want, lang);
    travelled = true;
    await travel(admin, AT.submission);

    // The exhibitor's checklist: the paid slot, everything done but the event's opening.
    await page.goto(url(hubPath));
    await signIn(page, EXHIBITOR, (p) => p === hubPath);
    await page.getByTestId('time-travel-banner').waitFor();
    // Two slots: ともしび工房's (the exhibitor owns it) and 夜更かし天文部's (a member's).
    const card = page.getByTestId('slot-card').filter({ hasNot: page.getByTestId('member-badge') });
    assert.equal(await card.count(), 1, 'one slot the exhibitor owns');
    assert.equal((await card.getByTestId('slot-circle').textContent())?.trim(), CIRCLE[lang]);
    const slotId = await card.getAttribute('data-slot');
    assert.ok(slotId);
    // Locate the card by its slot from here on (its text changes with the states).
    const slot = () => page.locator(`[data-testid=slot-card][data-slot="${slotId}"]`);

    /** Asserts the hub's steps (reloaded) for the slot: states, and each step's label and state label in the language. @param {string[]} want @param {string} shot */
    const hubShows = async (want, shot) => {
      await page.goto(url(hubPath));
      const steps = slot().locator('li[data-state]');
      const got = await steps.evaluateAll((els) => els.map((el) => [el.getAttribute('data-testid'), el.getAttribute('data-state')]));
      const expected = STEPS.map((kind, i) => [`step-${kind}`, want[i]]);
      // On a mismatch, say what the hub showed and at which clock (a CI run once failed here
      // with nothing more to go on).
      const clock = JSON.stringify(got) === JSON.stringify(expected)
        ? ''
        : await page.getByTestId('time-travel-banner').textContent({ timeout: 1000 }).catch(() => 'no banner');
      assert.deepEqual(got, expected, `hub steps (${shot}): ${JSON.stringify(got)} ${clock ?? ''}`);
      for (const [i, kind] of STEPS.entries()) {
        const step = slot().getByTestId(`step-${kind}`);
        assert.equal((await step.locator('.checklist__label strong').textContent())?.trim(), t.exhibit.hub.step[kind]);
        assert.equal((await step.locator('.checklist__state').textContent())?.trim(), t.exhibit.hub.state[want[i]]);
      }
      await screenshot(page, `exhibit-${lang}-hub-${shot}.png`);
    };
    /** The hub at 390 px: nothing wider than the screen. @param {string} shot */
    const hubAtPhone = async (shot) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url(hubPath));
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `the hub fits 390 px (${width} px, ${shot})`);
      await screenshot(page, `exhibit-${lang}-hub-${shot}-390.png`);
      await page.setViewportSize({ width: 1280, height: 800 });
    };

    await hubShows(['done', 'done', 'done', 'done', 'waiting'], 'start');
    await hubAtPhone('start');

    // A catalogue item, from the checklist's link to the catalogue.
    await Promise.all([page.waitForURL((u) => u.pathname === `${base}/catalog`), slot().getByTestId('action-catalog').click()]);
    const items = slot().getByTestId('item');
    const before = await items.count();
    await Promise.all([page.waitForURL((u) => u.pathname === `${base}/catalog/new`), slot().getByTestId('item-new').click()]);
    const form = page.getByTestId('item-form');
    const mark = `${STAMP}-${lang}`;
    const names = { ja: `星あかりランプ ${mark}`, en: `Starlight lamp ${mark}` };
    await form.locator('#name_ja').fill(names.ja);
    await form.locator('#name_en').fill(names.en);
    await form.locator('#category_id').selectOption({ index: 1 });
    await form.locator('#url').fill('https://tomoshibi.example/starlight');
    await form.locator('input[name=is_distributable][value=true]').check();
    await screenshot(page, `exhibit-${lang}-item-form.png`);
    await Promise.all([page.waitForURL((u) => u.pathname === `${base}/catalog`), form.getByTestId('submit').click()]);
    assert.equal((await page.getByTestId('done').textContent())?.trim(), t.exhibit.catalog.done.created);
    assert.equal(await items.count(), before + 1);
    assert.deepEqual(
      (await slot().getByTestId('item-name').allTextContents()).filter((n) => n.includes(mark)),
      [names[lang]],
      'the new item, named in the language',
    );
    await screenshot(page, `exhibit-${lang}-catalog.png`);

    // A booth package uploaded through the booth maker; its check passes.
    /** @param {string} file @param {string} note */
    const uploadBooth = async (file, note) => {
      await page.goto(url(`${prefix}/mypage/booth-maker/assets/upload`));
      const island = page.locator('[data-island="asset-upload"][data-island-state="mounted"]');
      await island.waitFor();
      await island.locator('input[type=radio][value=booth_package]').check();
      await island.getByTestId('file-input').setInputFiles({ name: file, mimeType: 'application/zip', buffer: boothPackage(note) });
      await island.getByTestId('upload-submit').click();
      const item = island.getByTestId('upload-item');
      await page.waitForFunction(() => document.querySelector('[data-testid="upload-item"]')?.getAttribute('data-phase') === 'done', null, {
        timeout: 60_000,
      });
      await Promise.all([page.waitForURL(/\/mypage\/booth-maker\/assets\/\d+$/), item.getByTestId('upload-open').click()]);
      await page.getByTestId('report').waitFor({ timeout: 60_000 });
      assert.equal(await page.getByTestId('report').getAttribute('data-status'), 'passed', `the check of ${file} passes`);
    };
    /** Submits the uploaded `file` from the slot's page; answers the new submission's number. @param {string} file */
    const submitBooth = async (file) => {
      const slotPage = `${base}/submissions/${slotId}`;
      await page.goto(url(slotPage));
      const form = page.getByTestId('submit-form');
      const choice = form.locator('#asset_version_id option').filter({ hasText: file });
      assert.equal(await choice.count(), 1, `${file} is offered`);
      await form.locator('#asset_version_id').selectOption((await choice.getAttribute('value')) ?? '');
      await Promise.all([page.waitForURL((u) => u.pathname === slotPage && u.search.includes('done=submitted')), form.getByTestId('submit').click()]);
      assert.equal((await page.getByTestId('done').textContent())?.trim(), t.exhibit.submissions.done);
      const newest = page.getByTestId('submission').first();
      assert.equal((await newest.getByTestId('submission-file').textContent())?.trim(), file);
      const status = newest.getByTestId('inspection-status');
      assert.equal(await status.getAttribute('data-status'), 'pending');
      assert.equal((await status.textContent())?.trim(), t.exhibit.submissions.inspection.pending);
      return Number(await newest.getAttribute('data-version'));
    };

    const first = `booth-${lang}-${STAMP}.zip`;
    await uploadBooth(first, 'first try');
    // From the checklist's link to the slot's submission page.
    await page.goto(url(hubPath));
    await Promise.all([page.waitForURL((u) => u.pathname === `${base}/submissions/${slotId}`), slot().getByTestId('action-submitted').click()]);
    const version = await submitBooth(first);
    await screenshot(page, `exhibit-${lang}-submitted.png`);
    await hubShows(['done', 'done', 'done', 'waiting', 'waiting'], '1-submitted');

    // Staff: the pending submission in the console, marked needs_fix with a reason.
    const reason =
      lang === 'en'
        ? `The roof of the dome rises 30 cm above the booth's 4×5×4 m box; keep it under 5 m. (${STAMP})`
        : `ドームの屋根がブースの枠（4×5×4 m）から30 cmはみ出しています。高さを5 m以内に収めてください。（${STAMP}）`;
    /** Opens the pending submission of `file` from the console's list (pending, newest only); answers its id. @param {string} file */
    const openPending = async (file) => {
      const filter = encodeURIComponent(JSON.stringify({ inspection_status: 'pending', newest: true }));
      await admin.goto(url(`/admin/slot_submissions?filter=${filter}`));
      const row = admin.locator('.RaDatagrid-row').filter({ hasText: file });
      await row.first().waitFor();
      await Promise.all([admin.waitForURL(/\/admin\/slot_submissions\/\d+\/show$/), row.first().click()]);
      const id = new URL(admin.url()).pathname.split('/')[3];
      await admin.goto(url(`/admin/slot_submissions/${id}`));
      await admin.locator('input[name="inspection_status"]').waitFor({ state: 'attached' });
      return id;
    };
    /** Picks the inspection verdict in the edit form. @param {'passed' | 'needs_fix'} status */
    const verdict = async (status) => {
      await admin
        .locator('.MuiInputBase-root', { has: admin.locator('input[name="inspection_status"]') })
        .locator('[role="combobox"]')
        .click();
      await admin.getByRole('option', { name: t.admin.choices.inspection_status[status], exact: true }).click();
    };
    /** Saves the edit form and waits for the show page. @param {string} id */
    const save = async (id) => {
      await Promise.all([
        admin.waitForURL((u) => u.pathname === `/admin/slot_submissions/${id}/show`, { timeout: 20_000 }),
        admin.locator('form button[type="submit"]').first().click(),
      ]);
    };

    const fixId = await openPending(first);
    await verdict('needs_fix');
    await admin.locator('.RaArrayInput-root, [class*="RaArrayInput"]').locator('button.button-add').first().click();
    await admin.locator('textarea[name="findings.0.reason"]').fill(reason);
    await admin.locator('input[name="findings.0.rule_id"]').fill('booth_space');
    await admin.locator('input[name="findings.0.blocking"]').check();
    await screenshot(admin, `exhibit-${lang}-console-needs-fix.png`);
    await save(fixId);
    assert.match((await admin.locator('main').textContent()) ?? '', new RegExp(t.admin.choices.inspection_status.needs_fix));

    // The exhibitor reads the reason on the submission page; the hub asks for a fix.
    await page.goto(url(`${base}/submissions/${slotId}`));
    const asked = page.locator(`[data-testid=submission][data-version="${version}"]`).first();
    assert.equal(await asked.getByTestId('inspection-status').getAttribute('data-status'), 'needs_fix');
    assert.equal((await asked.getByTestId('inspection-status').textContent())?.trim(), t.exhibit.submissions.inspection.needs_fix);
    const finding = (await asked.getByTestId('finding').textContent()) ?? '';
    assert.ok(finding.includes(reason), `the reason shows: ${finding}`);
    assert.ok(finding.includes(t.exhibit.submissions.blocking), 'marked as blocking');
    await screenshot(page, `exhibit-${lang}-needs-fix.png`);
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the submission page fits 390 px (${width} px)`);
    await screenshot(page, `exhibit-${lang}-needs-fix-390.png`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await hubShows(['done', 'done', 'done', 'needs_fix', 'waiting'], '2-needs-fix');

    // A fixed package, submitted again: waiting for inspection.
    const fixed = `booth-${lang}-${STAMP}-fixed.zip`;
    await uploadBooth(fixed, 'roof lowered to 4.7 m');
    assert.equal(await submitBooth(fixed), version + 1);
    await hubShows(['done', 'done', 'done', 'waiting', 'waiting'], '3-resubmitted');

    // Inspection: the window closed, staff pass the booth.
    await travel(admin, AT.inspection);
    await page.goto(url(`${base}/submissions/${slotId}`));
    assert.equal(await page.getByTestId('submit-form').count(), 0, 'no more submissions once the window closed');
    await hubShows(['done', 'done', 'done', 'waiting', 'waiting'], '4-inspection');
    const passId = await openPending(fixed);
    await verdict('passed');
    await save(passId);
    await page.goto(url(`${base}/submissions/${slotId}`));
    const passed = page.getByTestId('submission').first();
    assert.equal(await passed.getAttribute('data-version'), String(version + 1));
    assert.equal(await passed.getByTestId('inspection-status').getAttribute('data-status'), 'passed');
    assert.equal((await passed.getByTestId('inspection-status').textContent())?.trim(), t.exhibit.submissions.inspection.passed);
    await hubShows(['done', 'done', 'done', 'done', 'waiting'], '5-passed');

    // catalog_open: item edits closed, no "add" link any more.
    await travel(admin, AT.catalogOpen);
    await page.goto(url(`${base}/catalog`));
    assert.equal(await slot().getByTestId('item-new').count(), 0, 'no new items after catalog_open');
    assert.equal(await slot().getByTestId('item-edit').count(), 0, 'no edits after catalog_open');
    assert.equal(await slot().getByTestId('item-name').filter({ hasText: mark }).count(), 1, 'the new item stays');
    await screenshot(page, `exhibit-${lang}-catalog-closed.png`);
    await hubShows(['done', 'done', 'done', 'done', 'waiting'], '6-catalog-open');

    // event_open: every step done.
    await travel(admin, AT.eventOpen);
    await hubShows(['done', 'done', 'done', 'done', 'done'], '7-event-open');
    await hubAtPhone('7-event-open');

    await travel(admin, null);
    travelled = false;
    assert.deepEqual(exhibitor.errors, [], 'no page errors (exhibitor)');
    assert.deepEqual(staff.errors, [], 'no page errors (console)');
  } finally {
    if (travelled) await travel(admin, null).catch(() => {});
    await exhibitor.close();
    await staff.close();
  }
}

for (const lang of /** @type {const} */ (['ja', 'en'])) {
  test(`after the win: item, booth, needs fix, fixed, passed, and the checklist turns green (${lang})`, { timeout: TEST_TIMEOUT_MS * 3 }, () =>
    story(lang),
  );
}
