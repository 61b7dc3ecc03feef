/** Smoke: the English worlds list (cards with English names) and a world detail page. */
// e2e-schedule: shared-read — reads the worlds list (scripts/e2e)
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

const DETAIL_LINK = 'a[href^="/en/world/"]';

test('/en/worlds lists at least 12 worlds in English and links to their pages', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    const res = await page.goto(url('/en/worlds'));
    assert.equal(res?.status(), 200);
    assert.equal(await htmlLang(page), 'en');
    assert.equal(await page.title(), 'Worlds | Virtual Market');

    const headings = (await page.locator('h1').allTextContents()).map((h) => h.trim());
    assert.ok(headings.includes('Worlds'), `h1 texts were ${JSON.stringify(headings)}`);

    const cards = page.getByTestId('world-card');
    const count = await cards.count();
    assert.ok(count >= 12, `expected at least 12 world cards, got ${count}`);
    for (let i = 0; i < count; i += 1) {
      const names = await cards.nth(i).locator('h3').allTextContents();
      assert.ok(names.length > 0, `world card ${i} has no <h3>`);
      const name = names[0]?.trim() ?? '';
      assert.ok(name !== '', `world card ${i} has an empty name`);
      assert.doesNotMatch(name, JAPANESE_RE, `world card ${i} name is not English: ${name}`);
    }
    assert.ok((await page.locator(DETAIL_LINK).count()) > 0, 'no link to a world detail page');

    await screenshot(page, 'worlds-en.png');

    const firstCard = cards.first();
    const cardIsLink = await firstCard.evaluate((el, sel) => el.matches(sel), DETAIL_LINK);
    const link = cardIsLink ? firstCard : firstCard.locator(DETAIL_LINK).first();
    const href = await link.getAttribute('href');
    await Promise.all([
      page.waitForURL((u) => u.pathname.startsWith('/en/world/') && u.pathname !== '/en/worlds'),
      link.click(),
    ]);
    assert.equal(new URL(page.url()).pathname, new URL(href ?? '', page.url()).pathname);
    assert.equal(await htmlLang(page), 'en');
    const detailTitle = await page.title();
    assert.ok(detailTitle.endsWith('| Virtual Market'), `detail title was ${JSON.stringify(detailTitle)}`);
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});
