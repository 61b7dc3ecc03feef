/**
 * Keyboard only: the skip link, the header menu (and a phone's menu button), the language switch, the catalogue search and
 * the contact form are used with Tab, arrows, Space and Enter (no clicks, no fills), and every
 * element that takes focus on the way shows it.
 */
// e2e-schedule: shared-read — reads pages, sends a contact message only staff read (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, htmlLang, launchBrowser, newPage, screenshot, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * What has focus, and whether it shows a focus indicator (an outline or a box shadow).
 * @param {import('playwright-core').Page} page
 */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
    const rect = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60),
      testid: el.getAttribute('data-testid'),
      name: el.getAttribute('name'),
      value: /** @type {HTMLInputElement} */ (el).value ?? null,
      href: el.getAttribute('href'),
      visible: outline || style.boxShadow !== 'none',
      onScreen: rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.right > 0,
    };
  });
}

/**
 * Presses Tab until the focused element satisfies `want` (at most `max` presses), checking
 * that every element focused on the way shows its focus.
 * @param {import('playwright-core').Page} page
 * @param {(f: NonNullable<Awaited<ReturnType<typeof focused>>>) => boolean} want
 * @param {string} what
 */
async function tabTo(page, want, what, max = 40) {
  /** @type {string[]} */
  const seen = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (!f) continue;
    const label = `${f.tag}${f.testid ? `[${f.testid}]` : ''}${f.name ? `[name=${f.name}]` : ''} ${JSON.stringify(f.text)}`;
    seen.push(label);
    assert.ok(f.visible, `focus is visible on ${label}`);
    assert.ok(f.onScreen, `the focused ${label} is on screen`);
    if (want(f)) return f;
  }
  assert.fail(`Tab never reached ${what}; focus went: ${seen.join(' → ')}`);
}

/**
 * Presses `key` and waits for the navigation it starts.
 * @param {import('playwright-core').Page} page
 * @param {string} key
 * @param {(u: URL) => boolean} landed
 */
async function pressAndWait(page, key, landed) {
  await Promise.all([page.waitForURL(landed), page.keyboard.press(key)]);
}

test('skip link, header menu and language switch with the keyboard', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    await page.goto(url('/'));
    // The first Tab stop is the skip link, shown when focused; Enter moves focus into the content.
    const skip = await tabTo(page, () => true, 'the skip link', 1);
    assert.equal(skip.text, '本文へスキップ');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'focus moved to the main content');

    // The header menu: back to the top, Tab to "ワールド", Enter.
    await page.goto(url('/'));
    await tabTo(page, (f) => f.href === '/worlds', 'the header link to the worlds');
    await pressAndWait(page, 'Enter', (u) => u.pathname === '/worlds');
    assert.equal(await page.locator('h1').first().textContent(), 'ワールド一覧');

    // The language switch, from the worlds page to its English version.
    const sw = await tabTo(page, (f) => f.testid === 'lang-switch', 'the language switch');
    assert.match(sw.text, /English/);
    await pressAndWait(page, 'Enter', (u) => u.pathname === '/en/worlds');
    assert.equal(await htmlLang(page), 'en');
    // And back, still by keyboard.
    await tabTo(page, (f) => f.testid === 'lang-switch', 'the language switch (English page)');
    await pressAndWait(page, 'Enter', (u) => u.pathname === '/worlds');
    assert.equal(await htmlLang(page), 'ja');
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});

test('a phone\'s header menu: a button that opens and closes the navigation by keyboard', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url('/en'));
    const button = page.locator('[data-menu-button]');
    const nav = page.locator('#site-nav');
    // Folded: the button says so, the links are out of sight and out of the Tab order.
    await button.waitFor({ state: 'visible' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.isVisible(), false, 'the navigation is folded on a phone');
    const toggle = await tabTo(page, (f) => f.tag === 'button' && f.text === 'Menu', 'the menu button');
    assert.equal(toggle.text, 'Menu');
    // Space opens it; the next Tab stop is its first link.
    await page.keyboard.press('Space');
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.equal(await nav.isVisible(), true, 'the navigation opens');
    const first = await tabTo(page, () => true, 'the first link of the menu', 1);
    assert.equal(first.href, '/en');
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.isVisible(), false, 'Escape folds the navigation');
    assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute('data-menu-button')), true);
    // Enter opens it too, and a link in it leads on.
    await page.keyboard.press('Enter');
    await tabTo(page, (f) => f.href === '/en/worlds', 'the worlds link in the menu');
    await screenshot(page, 'keyboard-phone-menu.png');
    await pressAndWait(page, 'Enter', (u) => u.pathname === '/en/worlds');
    // At desktop width there is no button and the navigation is always there.
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await button.isVisible(), false);
    assert.equal(await nav.isVisible(), true);
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});

test('catalogue search with the keyboard: companies by keyword, in English', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    await page.goto(url('/en/2026Summer/catalog/search'));
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'keyword', 'the keyword field');
    await page.keyboard.type('a');
    // One Tab stop per radio group; arrows choose within it.
    const view = await tabTo(page, (f) => f.name === 'viewType', 'the view choice');
    assert.equal(view.value, 'item', 'the checked option takes focus');
    await page.keyboard.press('ArrowRight');
    assert.equal((await focused(page))?.value, 'circle');
    const owner = await tabTo(page, (f) => f.name === 'type', 'the exhibitor type choice', 1);
    assert.equal(owner.value, 'exhibitor');
    await page.keyboard.press('ArrowRight');
    assert.equal((await focused(page))?.value, 'company');
    await tabTo(page, (f) => f.tag === 'button', 'the search button', 1);
    await pressAndWait(page, 'Enter', (u) => u.searchParams.get('type') === 'company');
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get('viewType'), 'circle');
    assert.equal(params.get('keyword'), 'a');
    // The two groups read apart: each has a visible legend.
    assert.equal(await page.getByTestId('search-view-type').locator('legend').innerText(), 'Show');
    assert.equal(await page.getByTestId('search-owner-type').locator('legend').innerText(), 'Exhibitor type');
    assert.ok(await page.getByTestId('search-view-type').locator('legend').isVisible());
    assert.ok((await page.locator('a[href*="/2026Summer/company/"]').count()) > 0, 'companies are listed');
    await screenshot(page, 'keyboard-catalog-search-en.png', false);
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});

test('contact form with the keyboard: choose, type, agree, send', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    await page.goto(url('/contact'));
    await tabTo(page, (f) => f.href === '/contact/form', 'the link to the form');
    await pressAndWait(page, 'Enter', (u) => u.pathname === '/contact/form');

    await tabTo(page, (f) => f.name === 'inquiry_category_id', 'the category');
    await page.keyboard.press('ArrowDown');
    assert.notEqual((await focused(page))?.value, '', 'a category is chosen');
    await tabTo(page, (f) => f.name === 'email', 'the email field', 1);
    await page.keyboard.type('keyboard@example.com');
    await tabTo(page, (f) => f.name === 'name', 'the name field', 1);
    await page.keyboard.type('キーボード利用者');
    await tabTo(page, (f) => f.name === 'message', 'the message', 1);
    await page.keyboard.type('キーボードだけで送っています。');
    await tabTo(page, (f) => f.name === 'agreement', 'the agreement', 1);
    await page.keyboard.press('Space');
    assert.ok(await page.locator('input[name="agreement"]').isChecked());
    await tabTo(page, (f) => f.tag === 'button', 'the send button', 1);
    await pressAndWait(page, 'Enter', (u) => u.pathname.startsWith('/contact/form/sent/'));
    assert.equal(await page.locator('[data-field="name"]').textContent(), 'キーボード利用者');
    await screenshot(page, 'keyboard-contact-sent-ja.png', false);
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});
