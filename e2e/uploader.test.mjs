/**
 * The asset uploader in a real browser (issue 27): a new user signs up from
 * /mypage/booth-maker, uploads a VRM avatar of 6.5 MB — in parts, the connection dropping once
 * under the second part; the page draws its snapshot from the file and sends it along — and
 * watches the asset page follow it to `uploaded`, with a passed report and a 3D view drawn by
 * three.js (SwiftShader's WebGL); in English, an avatar of
 * 25,000 triangles fails with a report naming the rule, the limit and the actual count. Both at
 * 1280 and 390 px. The files come from `vmarket sample` (the analysers' own generators).
 */
// e2e-schedule: shared-read — a new account of its own; its assets are its own (scripts/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { accountForm, launchBrowser, messages, newPage, screenshot, SUBMIT, TEST_TIMEOUT_MS, url, VMARKET_BIN } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const JA = messages('ja');
const EN = messages('en');

const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
const ACCOUNT = {
  email: `e2e-up-${STAMP}@example.com`,
  password: `pw-${STAMP}-secret`,
  vmarket_id: `e2e_up_${STAMP}`,
  name_ja: 'アップ太郎',
  name_en: 'Uploader Taro',
};

const WORK = mkdtempSync(join(tmpdir(), 'vmarket-uploader-'));
/** @param {string} name @param {string[]} args */
function sample(name, args) {
  const out = join(WORK, name);
  execFileSync(VMARKET_BIN, ['sample', ...args, '--out', out], { stdio: 'ignore' });
  return out;
}

/**
 * Uploads `file` as an avatar from the upload page and opens its asset page; answers what became
 * of the snapshot the page draws from the file.
 * @param {import('playwright-core').Page} page @param {string} file
 */
async function uploadAvatar(page, file) {
  const island = page.locator('[data-island="asset-upload"][data-island-state="mounted"]');
  await island.waitFor();
  await island.locator('input[type=radio][value=avatar]').check();
  await island.getByTestId('file-input').setInputFiles(file);
  await island.getByTestId('upload-submit').click();
  const item = island.getByTestId('upload-item');
  await item.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="upload-item"]')?.getAttribute('data-phase') === 'done', null, {
    timeout: 60_000,
  });
  const snapshot = await item.getAttribute('data-snapshot');
  await Promise.all([page.waitForURL(/\/mypage\/booth-maker\/assets\/\d+$/), item.getByTestId('upload-open').click()]);
  return snapshot;
}

/**
 * Waits until the asset page shows a report (the status island reloads the page for it).
 * @param {import('playwright-core').Page} page
 */
async function reportShown(page) {
  await page.getByTestId('report').waitFor({ timeout: 60_000 });
  return page.getByTestId('report').getAttribute('data-status');
}

test('a new user uploads a VRM in parts and sees it checked, passed and drawn in 3D', { timeout: TEST_TIMEOUT_MS * 3 }, async () => {
  assert.ok(browser);
  const avatar = sample('avatar.vrm', ['vrm0', '--triangles', '2000', '--min-bytes', String(6.5 * 1024 * 1024)]);
  const { page, errors, close } = await newPage(browser);
  try {
    // Signed out, the booth maker sends the visitor to sign up and back.
    await page.goto(url('/mypage/booth-maker'));
    const signUp = await accountForm(page, 'sign-up');
    for (const [field, value] of Object.entries(ACCOUNT)) await signUp.locator(`input[name="${field}"]`).fill(value);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/mypage/booth-maker', { timeout: 20_000 }),
      signUp.locator(SUBMIT).first().click(),
    ]);
    assert.equal(await page.locator('h1').textContent(), JA.booth_maker.title);
    assert.equal((await page.getByTestId('asset-empty').textContent())?.trim(), JA.booth_maker.empty);

    await Promise.all([page.waitForURL((u) => u.pathname === '/mypage/booth-maker/assets/upload'), page.getByTestId('asset-upload-link').click()]);
    // The connection drops once under part 2: the part is sent again and the upload goes on.
    let part2 = 0;
    await page.route('**/uploader/uploads/*/parts/2?*', async (route) => {
      part2 += 1;
      if (part2 === 1) await route.abort('connectionreset');
      else await route.continue();
    });
    const parts = new Set();
    page.on('requestfinished', (req) => {
      const m = /\/uploader\/uploads\/[^/]+\/parts\/(\d+)/.exec(req.url());
      if (m && req.method() === 'PUT') parts.add(m[1]);
    });
    // The page drew the model from the file and sent the picture along.
    assert.equal(await uploadAvatar(page, avatar), 'sent');
    assert.deepEqual([...parts].sort(), ['1', '2'], 'the file went in two parts');
    assert.equal(part2, 2, 'part 2 was sent again after the drop');

    assert.equal(await reportShown(page), 'passed');
    assert.equal(await page.getByTestId('report-verdict').textContent(), JA.booth_maker.verdict.passed);
    // The report is written before the thumbnails are made: the row reaches `uploaded` after
    // `converting`, live, a moment later.
    const row = page.getByTestId('version-row').first();
    await row.locator('[data-testid="version-status"][data-status="uploaded"]').waitFor({ timeout: 30_000 });
    assert.equal(await row.getByTestId('version-status').getAttribute('data-status'), 'uploaded');
    assert.match((await page.getByTestId('report-stats').textContent()) ?? '', /2000/);
    // The picture the upload page drew shows; the 3D view opens on request and draws the avatar.
    await page.getByTestId('preview-open').click();
    const said = /** @type {string[]} */ ([]);
    page.on('console', (msg) => said.push(`${msg.type()}: ${msg.text()}`));
    await page.locator('[data-testid="model-preview"][data-state="ready"]').waitFor({ timeout: 30_000 }).catch(async (err) => {
      await screenshot(page, 'uploader-preview-failed.png');
      throw new Error(`the preview did not draw: ${said.join(' | ')}`, { cause: err });
    });
    const drawn = await page.getByTestId('preview-canvas').evaluate((canvas) => {
      const c = /** @type {HTMLCanvasElement} */ (canvas);
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d');
      ctx?.drawImage(c, 0, 0);
      const data = ctx?.getImageData(0, 0, copy.width, copy.height).data ?? [];
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4 * 97) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      return colours.size;
    });
    assert.ok(drawn > 2, `the preview shows more than its background (${drawn} colours)`);
    await screenshot(page, 'uploader-asset-ja.png');
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `nothing overflows at 390 px (${overflow} px)`);
    await screenshot(page, 'uploader-asset-ja-390.png');

    // The list shows it, uploaded and passed.
    await page.goto(url('/mypage/booth-maker'));
    assert.equal(await page.getByTestId('asset-row').count(), 1);
    assert.equal(await page.getByTestId('asset-status').textContent(), JA.booth_maker.status.uploaded);
    await screenshot(page, 'uploader-list-ja-390.png');

    // In English, a 25,000-triangle avatar fails with the rule, the limit and the count.
    await page.setViewportSize({ width: 1280, height: 800 });
    const heavy = sample('heavy.vrm', ['vrm1', '--triangles', '25000']);
    await page.goto(url('/en/mypage/booth-maker/assets/upload'));
    // Its picture is sent, or skipped when the checks failed it first.
    assert.match((await uploadAvatar(page, heavy)) ?? '', /^(sent|skipped)$/);
    assert.equal(await reportShown(page), 'failed');
    assert.equal(await page.getByTestId('report-verdict').textContent(), EN.booth_maker.verdict.failed);
    const finding = page.getByTestId('finding').filter({ hasText: '25000' }).first();
    assert.equal(await finding.getByTestId('finding-limit').textContent(), '20000');
    assert.equal(await finding.getByTestId('finding-actual').textContent(), '25000');
    assert.match((await finding.textContent()) ?? '', /triangles|polygons/i);
    assert.match((await finding.locator('code').textContent()) ?? '', /\S/, 'the finding names its rule');
    await screenshot(page, 'uploader-failed-en.png');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
