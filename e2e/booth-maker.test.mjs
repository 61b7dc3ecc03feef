/**
 * The booth maker (issue 29's "done when") in a real browser, the 3D view drawn by three.js on
 * SwiftShader's WebGL: the demo exhibitor, with furniture uploaded through the uploader (two
 * pieces and a heavy one of 14,000 polygons), starts a booth in a preset home, shows their avatar
 * for scale (the demo VRM), places two items,
 * moves one with the keyboard and undoes it, watches the rule check turn red when a third heavy
 * piece puts the booth over 40,000 polygons and green when it is deleted, closes the tab, comes
 * back to the autosaved draft, and submits it for the demo slot (inside 2026Winter's submission
 * window, reached by time travel); the editor's totals equal the server's. Then the editor in
 * English. Screenshots at 1280 and 390 px in both languages.
 */
// e2e-schedule: private — travels the clock and submits for the demo slot: a demo server of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { TEST_TIMEOUT_MS, VMARKET_BIN, launchBrowser, messages, newPage, screenshot, signIn, travel, url } from './support.mjs';

const DEMO_PASSWORD = 'vmarket-demo-2026';
const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
const ADMIN = { email: 'admin@demo.vmarket.test', password: DEMO_PASSWORD };
/** Inside 2026Winter's submission window in the demo calendar (see e2e/exhibit.test.mjs). */
const SUBMISSION = '2026-11-20T00:00:00Z';
const JA = messages('ja');
const EN = messages('en');

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const WORK = mkdtempSync(join(tmpdir(), 'vmarket-booth-'));
/** @param {string} name @param {string[]} args */
function sample(name, args) {
  const out = join(WORK, name);
  execFileSync(VMARKET_BIN, ['sample', 'glb', ...args, '--out', out], { stdio: 'ignore' });
  return readFileSync(out);
}

/**
 * Uploads `bytes` as furniture named `name` through the uploader API as the signed-in page's user;
 * waits until its version is uploaded.
 * @param {import('playwright-core').Page} page @param {string} name @param {Buffer} bytes
 */
async function upload(page, name, bytes) {
  const csrf = (await page.locator('meta[name=csrf-token]').getAttribute('content')) ?? '';
  const headers = { 'X-CSRF-Token': csrf };
  const sent = await page.request.post(url('/uploader/temporary_uploads'), {
    headers,
    multipart: { file: { name: `${name}.glb`, mimeType: 'model/gltf-binary', buffer: bytes } },
  });
  assert.equal(sent.status(), 201, await sent.text());
  const body = {
    asset_setting_label: 'furniture',
    name,
    description: '',
    file_name: `${name}.glb`,
    byte_size: bytes.length,
    temporary_upload_id: (await sent.json()).id,
  };
  const opened = await page.request.post(url('/uploader/assets'), { headers, data: body });
  assert.equal(opened.status(), 201, await opened.text());
  const { asset } = await opened.json();
  for (let i = 0; i < 300; i += 1) {
    const res = await page.request.get(url(`/uploader/assets/${asset.id}`));
    const status = (await res.json()).asset_versions?.[0]?.upload_status;
    if (status === 'uploaded') return;
    assert.notEqual(status, 'failed', `${name} failed its check`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} was not uploaded in time`);
}

/** @param {import('playwright-core').Page} page */
async function ready(page) {
  await page.locator('[data-testid=booth-editor][data-state=ready]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=editor-keys] canvas').waitFor({ timeout: 60_000 });
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function place(page, name) {
  // The button's accessible name names the piece ("Place {name}").
  await page.getByTestId('palette-place').and(page.getByRole('button', { name: new RegExp(name) })).first().click();
}

/** @param {import('playwright-core').Page} page */
async function ruleStatus(page) {
  return page.getByTestId('rule-check').getAttribute('data-status');
}

/** @param {import('playwright-core').Page} page */
async function saved(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=autosave]')?.getAttribute('data-state') === 'saved', null, {
    timeout: 30_000,
  });
}

test('a booth is built, checked as it changes, comes back after the tab closes, and is submitted', { timeout: TEST_TIMEOUT_MS * 3 }, async () => {
  assert.ok(browser);
  const staff = await newPage(browser);
  const user = await newPage(browser);
  let travelled = false;
  try {
    await staff.page.goto(url('/admin'));
    await signIn(staff.page, ADMIN, (p) => p === '/admin');
    travelled = true;
    await travel(staff.page, SUBMISSION);

    const { page, errors } = user;
    await page.goto(url('/mypage/booth-maker'));
    await signIn(page, EXHIBITOR, (p) => p === '/mypage/booth-maker');
    const stamp = Date.now().toString(36);
    await upload(page, `棚-${stamp}`, sample(`shelf-${stamp}.glb`, ['--triangles', '800', '--materials', '2']));
    await upload(page, `ランプ-${stamp}`, sample(`lamp-${stamp}.glb`, ['--triangles', '400']));
    await upload(page, `大きな像-${stamp}`, sample(`statue-${stamp}.glb`, ['--triangles', '14000', '--height', '1.8']));

    // A new booth in the first preset home.
    await page.goto(url('/mypage/booth-maker'));
    await page.locator('#scene-name').fill(`e2e ブース ${stamp}`);
    await Promise.all([page.waitForURL(/\/mypage\/booth-maker\/scenes\/\d+$/), page.getByTestId('scene-create').click()]);
    const editorPath = new URL(page.url()).pathname;
    const sceneId = Number(editorPath.split('/').pop());
    await ready(page);
    assert.equal(await ruleStatus(page), 'ok');

    // Two items; the second selected, moved right by the keyboard, and the move undone.
    await place(page, `棚-${stamp}`);
    await place(page, `ランプ-${stamp}`);
    await page.getByTestId('placed-item').nth(1).click();
    const x0 = Number(await page.getByTestId('selected-position').getAttribute('data-x'));
    await page.getByTestId('editor-keys').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((x) => Number(document.querySelector('[data-testid=selected-position]')?.getAttribute('data-x')) > x + 0.05, x0);
    await page.keyboard.press('Control+z');
    await page.waitForFunction((x) => Math.abs(Number(document.querySelector('[data-testid=selected-position]')?.getAttribute('data-x')) - x) < 1e-6, x0);
    // The user's avatar stands in the room for scale (the demo VRM, drawn as glTF where
    // three-vrm refuses its skeleton): no "could not be shown".
    await page.getByTestId('show-avatar').check();
    await page.locator('[data-testid=show-avatar]:not([data-avatar-state=none])').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('show-avatar').getAttribute('data-avatar-state'), 'shown');
    await screenshot(page, 'booth-maker-ja-1280.png', false);

    // Three statues: 42,000 polygons and more, over the 40,000 rule; delete one: back under.
    for (let i = 0; i < 3; i += 1) await place(page, `大きな像-${stamp}`);
    await page.waitForFunction(() => document.querySelector('[data-testid=rule-check]')?.getAttribute('data-status') === 'over');
    assert.equal(await page.locator('[data-testid=rule-row][data-rule=polygons]').getAttribute('data-over'), 'true');
    await screenshot(page, 'booth-maker-ja-over.png', false);
    await page.getByTestId('placed-item').last().click();
    await page.getByTestId('delete').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=rule-check]')?.getAttribute('data-status') === 'ok');
    assert.equal(await page.getByTestId('placed-item').count(), 4);
    await saved(page);

    // Closed and opened again: the draft is there; the editor's totals are the server's.
    const shown = await page.getByTestId('totals').evaluate((el) => ({
      items: el.getAttribute('data-items'),
      triangles: el.getAttribute('data-triangles'),
      materials: el.getAttribute('data-materials'),
      box: el.getAttribute('data-box'),
    }));
    await page.close();
    const again = await user.page.context().newPage();
    await again.goto(url(editorPath));
    await ready(again);
    assert.equal(await again.getByTestId('placed-item').count(), 4);
    const revision = Number(await again.getByTestId('autosave').getAttribute('data-revision'));
    const csrf = (await again.locator('meta[name=csrf-token]').getAttribute('content')) ?? '';
    const draft = await again.request.put(url(`/api/v1/booth_maker/scenes/${sceneId}/draft`), {
      headers: { 'X-CSRF-Token': csrf },
      data: { revision, scene: (await (await again.request.get(url(`/api/v1/booth_maker/scenes/${sceneId}`))).json()).draft.scene },
    });
    assert.equal(draft.status(), 200, await draft.text());
    const server = (await draft.json()).totals;
    assert.deepEqual(shown, {
      items: String(server.items),
      triangles: String(server.triangles),
      materials: String(server.materials),
      box: server.box.map((/** @type {number} */ v) => v.toFixed(3)).join(','),
    });
    assert.equal(server.triangles, 800 + 400 + 14000 * 2);

    // The page wrote revision+1 behind the editor's back: it says so rather than overwrite.
    await again.reload();
    await ready(again);

    // Submitted for the demo slot.
    const slot = again.getByTestId('submit-slot');
    await slot.selectOption({ index: 0 });
    await again.getByTestId('submit').click();
    await again.locator('[data-testid=submit-result][data-state=done]').waitFor({ timeout: 30_000 });
    await screenshot(again, 'booth-maker-ja-submitted.png');
    await again.setViewportSize({ width: 390, height: 844 });
    await screenshot(again, 'booth-maker-ja-390.png');
    const wide = await again.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `nothing wider than the phone: ${wide}`);

    // In English: the same booth, English labels.
    await again.setViewportSize({ width: 1280, height: 800 });
    await again.goto(url(`/en${editorPath}`));
    await ready(again);
    assert.equal(await again.getByTestId('undo').textContent(), EN.booth_maker.editor.undo);
    await screenshot(again, 'booth-maker-en-1280.png', false);
    await again.setViewportSize({ width: 390, height: 844 });
    await screenshot(again, 'booth-maker-en-390.png');
    assert.notEqual(JA.booth_maker.editor.undo, EN.booth_maker.editor.undo);
    assert.deepEqual(errors, []);
  } finally {
    if (travelled) await travel(staff.page, null);
    await staff.close();
    await user.close();
  }
});
