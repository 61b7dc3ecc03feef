/**
 * Smoke: catalogue search and an exhibitor page, in Japanese and English.
 *
 * The e2e server runs the demo data at the real current time. 2026Winter (the current event)
 * opens on 2026-12-12, so its catalogue is still locked; these tests use 2026Summer, whose event
 * has closed: past events keep their catalogue open as an archive (search, exhibitor and company
 * pages), so a visitor can look back at what was shown.
 */
// e2e-schedule: shared-read — reads 2026Summer's catalogue (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { JAPANESE_RE, TEST_TIMEOUT_MS, htmlLang, launchBrowser, newPage, screenshot, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * Searches the catalogue of `prefix`/2026Summer for `keyword`, expects an item named `expected`,
 * and opens the exhibitor that offers it.
 * @param {{ prefix: string, keyword: string, expected: string, lang: string, shot: string }} c
 */
async function searchAndOpenExhibitor({ prefix, keyword, expected, lang, shot }) {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    const res = await page.goto(url(`${prefix}/2026Summer/catalog`));
    assert.equal(res?.status(), 200);
    assert.equal(await htmlLang(page), lang);

    const form = page.getByTestId('catalog-search');
    await form.locator('input[name="keyword"]').fill(keyword);
    await Promise.all([
      page.waitForURL((u) => u.pathname === `${prefix}/2026Summer/catalog/search`),
      form.locator('button[type="submit"]').click(),
    ]);
    assert.equal(new URL(page.url()).searchParams.get('keyword'), keyword);
    assert.match((await page.getByTestId('result-count').textContent()) ?? '', /\d/);

    const cards = page.getByTestId('item-card');
    const names = (await cards.locator('h3').allTextContents()).map((n) => n.trim());
    assert.ok(names.includes(expected), `results were ${JSON.stringify(names)}`);
    await screenshot(page, `${shot}-search.png`);

    const card = cards.nth(names.indexOf(expected));
    const owner = card.locator('.item-card__owner a');
    const ownerName = (await owner.textContent())?.trim() ?? '';
    await Promise.all([
      page.waitForURL((u) => u.pathname.startsWith(`${prefix}/2026Summer/exhibitor/`)),
      owner.click(),
    ]);
    assert.equal(await htmlLang(page), lang);
    assert.equal((await page.locator('h1').textContent())?.trim(), ownerName);
    const items = (await page.getByTestId('item-card').locator('h3').allTextContents()).map((n) => n.trim());
    assert.ok(items.includes(expected), `exhibitor items were ${JSON.stringify(items)}`);
    assert.ok(((await page.getByTestId('placement').textContent()) ?? '').trim() !== '', 'no placement');
    await screenshot(page, `${shot}-exhibitor.png`);
    assert.deepEqual(errors, [], 'uncaught page errors');
    return { page, items };
  } finally {
    await close();
  }
}

test('Japanese: searching 猫耳 finds the cat-ear headband and opens its circle', { timeout: TEST_TIMEOUT_MS }, async () => {
  await searchAndOpenExhibitor({ prefix: '', keyword: '猫耳', expected: '猫耳カチューシャ', lang: 'ja', shot: 'catalog-ja' });
});

test('English: searching "headband" finds the Cat-Ear Headband and opens its circle', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { items } = await searchAndOpenExhibitor({
    prefix: '/en',
    keyword: 'headband',
    expected: 'Cat-Ear Headband',
    lang: 'en',
    shot: 'catalog-en',
  });
  for (const name of items) assert.doesNotMatch(name, JAPANESE_RE, `item name is not English: ${name}`);
});

test('the current event keeps its catalogue locked until the event opens', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, close } = await newPage(browser);
  try {
    const res = await page.goto(url('/en/catalog'));
    assert.equal(res?.status(), 200);
    // Before 2026-12-12 the search header is hidden; afterwards it is shown.
    const locked = await page.getByTestId('catalog-locked').count();
    const search = await page.getByTestId('catalog-search').count();
    assert.equal(locked + search, 1, 'either the lock notice or the search header');
  } finally {
    await close();
  }
});
