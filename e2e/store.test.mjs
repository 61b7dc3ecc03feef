/**
 * The store in a real browser (issue 31): the demo exhibitor puts their table on sale a second
 * time with the mypage form — a discount of 25 % from 10 to 12 January 2027 — after the form
 * refused a price that is not a number and kept what was typed — adds two pictures and makes it
 * a set with the lantern ribbon as a bonus; a visitor finds it by keyword
 * at 800 yen; with the clock moved into the discount window (time travel) the store, the item
 * page and the English pages show 600 yen, 25 % off and when the sale ends, at 1280 and 390 px;
 * the visitor signs in there (the demo friend, on a phone, in English) and pays 600 yen through
 * the fake PayPal's page, back on the order's page paid; the demo director pays on the fake
 * GMO's page and comes back through GMO's POST, paid; the demo admin, a buyer like any other, buys it there by card (localstripe's Stripe.js) at the
 * 600 yen the order page holds, gets the free demo table with the item page's button,
 * downloads both files and the set's ribbon from "Purchases", and places the bought table in a
 * new booth from the booth maker's palette.
 */
// e2e-schedule: private — travels the clock and buys with a demo account: a demo server of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, signIn, travel, typeCard, url } from './support.mjs';

const DEMO_PASSWORD = 'vmarket-demo-2026';
const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
const ADMIN = { email: 'admin@demo.vmarket.test', password: DEMO_PASSWORD };
const FRIEND = { email: 'friend@demo.vmarket.test', password: DEMO_PASSWORD };
const DIRECTOR = { email: 'director@demo.vmarket.test', password: DEMO_PASSWORD };
const IN_THE_SALE = '2027-01-10T12:00:00+09:00';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * A `w`×`h` PNG of `colour` with `label`, drawn by the browser's canvas (a picture to upload).
 * @param {import('playwright-core').Page} page @param {number} w @param {number} h @param {string} colour @param {string} label
 */
async function picture(page, w, h, colour, label) {
  const data = await page.evaluate(([w, h, colour, label]) => {
    const canvas = document.createElement('canvas');
    canvas.width = Number(w);
    canvas.height = Number(h);
    const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    g.fillStyle = String(colour);
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#fff';
    g.font = 'bold 96px sans-serif';
    g.fillText(String(label), 60, canvas.height / 2);
    return canvas.toDataURL('image/png').split(',')[1] ?? '';
  }, [w, h, colour, label]);
  return Buffer.from(data, 'base64');
}

/** @param {import('playwright-core').Page} page */
async function noSidewaysScroll(page) {
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(wider, 0, `no sideways scrolling at 390 px on ${page.url()}`);
}

test('a seller discounts an item, visitors see the price by the clock, a buyer gets and downloads', { timeout: TEST_TIMEOUT_MS * 3 }, async () => {
  assert.ok(browser);
  const seller = await newPage(browser);
  const visitor = await newPage(browser);
  const staff = await newPage(browser);
  const director = await newPage(browser);
  let travelled = false;
  try {
    // The seller's form: a wrong price comes back with its message, the rest kept.
    const { page } = seller;
    await page.goto(url('/mypage/store/items/new'));
    await signIn(page, EXHIBITOR, (p) => p === '/mypage/store/items/new');
    await page.locator('#asset_id').selectOption({ label: '木のテーブル (家具)' });
    await page.locator('#name').fill('木のテーブル（限定色）');
    await page.locator('#name_en').fill('Wooden table (limited colour)');
    await page.locator('#price').fill('');
    await page.locator('input[name=accessible_status][value=published]').check();
    await page.locator('#discount_rate').fill('25');
    await page.locator('#discount_start_at').fill('2027-01-10T00:00');
    await page.locator('#discount_end_at').fill('2027-01-12T00:00');
    await page.getByTestId('store-save').click();
    await page.waitForSelector('[data-testid=form-notice]');
    assert.deepEqual(await page.locator('.field__error').evaluateAll((els) => els.map((e) => e.getAttribute('data-field'))), ['price']);
    assert.equal(await page.locator('#name').inputValue(), '木のテーブル（限定色）', 'what was typed is kept');
    assert.equal(await page.locator('#discount_start_at').inputValue(), '2027-01-10T00:00');
    await page.locator('#price').fill('800');
    await Promise.all([page.waitForURL((u) => u.search.includes('done=created')), page.getByTestId('store-save').click()]);
    const mine = page.getByTestId('store-mine-item').filter({ hasText: '木のテーブル（限定色）' });
    assert.equal(await mine.getByTestId('store-mine-status').innerText(), '公開');
    await screenshot(page, 'store-mine-ja.png');
    // Two pictures on the item's form; the first becomes its picture in the store.
    await Promise.all([page.waitForURL(/\/edit$/), mine.getByTestId('store-mine-edit').click()]);
    // The second upload comes back to the address the first left showing, so waiting for the
    // address alone would read the old page: wait for the new picture itself.
    for (const [i, [colour, label]] of [['#8a5a2b', 'TABLE'], ['#2b5a8a', 'BACK']].entries()) {
      await page.locator('#picture-file').setInputFiles({ name: 'table.png', mimeType: 'image/png', buffer: await picture(page, 1200, 900, colour, label) });
      await page.getByTestId('store-picture-add').click();
      await page.getByTestId('store-picture').nth(i).waitFor();
    }
    assert.ok(new URL(page.url()).search.includes('picture=added'));
    assert.equal(await page.getByTestId('store-picture').count(), 2);
    assert.equal(await page.getByTestId('store-picture-note').innerText(), '画像を追加しました。');
    await screenshot(page, 'store-pictures-ja.png');
    // The lantern ribbon comes with it as a bonus: the table becomes a set of the two.
    await page.getByTestId('store-set').getByLabel(/灯りのリボン/).check();
    await Promise.all([page.waitForURL((u) => u.search.includes('set=saved')), page.getByTestId('store-set-save').click()]);
    assert.equal(await page.getByTestId('store-set-note').innerText(), 'セット内容を保存しました。');
    await screenshot(page, 'store-set-ja.png');

    // A visitor finds it by keyword at the regular price.
    const v = visitor.page;
    await v.goto(url(`/store?q=${encodeURIComponent('限定色')}`));
    assert.equal(await v.getByTestId('store-item').count(), 1);
    assert.equal((await v.getByTestId('store-item-price').innerText()).trim(), '800円');

    // Inside the discount window (time travel): 25 % off, in both languages and on a phone.
    await staff.page.goto(url('/admin'));
    await signIn(staff.page, ADMIN, (p) => p === '/admin');
    travelled = true;
    await travel(staff.page, IN_THE_SALE);
    await v.reload();
    assert.match(await v.getByTestId('store-item-price').innerText(), /^600円\s+25%OFF$/);
    await screenshot(v, 'store-sale-ja.png');
    await v.getByTestId('store-item').locator('a').click();
    await v.waitForSelector('[data-testid=store-item-page]');
    assert.match(await v.getByTestId('store-price').innerText(), /600円\s+800円\s+25%OFF/);
    assert.equal(await v.getByTestId('store-gallery').locator('img').count(), 2, 'the seller\'s pictures');
    assert.equal(await v.getByTestId('store-discount-until').innerText(), 'セールは2027/01/12 00:00まで');
    assert.equal(await v.getByTestId('store-buy').getAttribute('data-state'), 'sign_in', 'a visitor signs in to buy');
    assert.equal(await v.getByTestId('store-set-items').innerText(), '灯りのリボン', 'what the set holds');
    const itemPath = new URL(v.url()).pathname;
    await v.setViewportSize({ width: 390, height: 844 });
    await v.goto(url(`/en${itemPath}`));
    assert.equal(await v.locator('h1').innerText(), 'Wooden table (limited colour)');
    assert.match(await v.getByTestId('store-price').innerText(), /¥600\s+¥800\s+25% off/);
    await noSidewaysScroll(v);
    await screenshot(v, 'store-item-en-390.png');
    await v.goto(url('/en/store'));
    await noSidewaysScroll(v);
    await screenshot(v, 'store-en-390.png');

    // The visitor signs in from the item page (the demo friend) and pays through PayPal at the
    // 600 yen shown: approved at the fake PayPal's page, back on the order's page, paid.
    await v.goto(url(`/en${itemPath}`));
    await v.getByTestId('store-buy').locator('a').click();
    await signIn(v, FRIEND, (p) => p === `/en${itemPath}`);
    assert.match(await v.getByTestId('store-paypal').innerText(), /¥600/);
    await screenshot(v, 'store-item-buy-en-390.png');
    await Promise.all([v.waitForURL((u) => u.pathname === '/checkoutnow'), v.getByTestId('store-paypal').click()]);
    assert.match(await v.locator('body').innerText(), /600/, 'PayPal is asked the price shown');
    await Promise.all([v.waitForURL((u) => u.pathname.startsWith('/en/store/orders/')), v.getByTestId('fake-paypal-pay').click()]);
    await v.waitForSelector('[data-testid=store-order][data-state=paid]');
    assert.equal(await v.getByTestId('store-order-amount').innerText(), '¥600');
    await noSidewaysScroll(v);
    await screenshot(v, 'store-order-paypal-paid-en-390.png');

    // The demo director pays on GMO's page instead; GMO's POST back lands on the order, paid.
    const d = director.page;
    await d.goto(url(itemPath));
    await d.getByTestId('store-buy').locator('a').click();
    await signIn(d, DIRECTOR, (p) => p === itemPath);
    await Promise.all([d.waitForURL((u) => u.pathname.includes('/checkout/')), d.getByTestId('store-gmo').click()]);
    assert.match(await d.getByTestId('fake-gmo-amount').innerText(), /^600 円/, 'GMO is asked the price shown');
    await d.getByTestId('fake-gmo-pay').click();
    await d.getByTestId('fake-gmo-result').waitFor();
    await Promise.all([d.waitForURL((u) => u.pathname.startsWith('/store/orders/')), d.getByTestId('fake-gmo-return').click()]);
    await d.waitForSelector('[data-testid=store-order][data-state=paid]');
    assert.equal(await d.getByTestId('store-order-amount').innerText(), '600円');
    await screenshot(d, 'store-order-gmo-paid-ja.png');

    // The admin (a buyer like any other) buys it by card inside the window, at the price held.
    const s = staff.page;
    await s.goto(url(itemPath));
    assert.equal(await s.getByTestId('store-buy').getAttribute('data-state'), 'paid');
    await screenshot(s, 'store-item-buy-ja.png');
    await Promise.all([
      s.waitForURL((u) => u.pathname.startsWith('/store/orders/')),
      s.getByTestId('store-checkout').click(),
    ]);
    assert.equal(await s.getByTestId('store-order-amount').innerText(), '600円');
    await typeCard(s);
    assert.equal((await s.getByTestId('pay-button').innerText()).trim(), '600円を支払う');
    await screenshot(s, 'store-order-ja.png');
    await s.getByTestId('pay-button').dblclick();
    await s.waitForSelector('[data-testid=store-order][data-state=paid]');
    await screenshot(s, 'store-order-paid-ja.png');
    await travel(staff.page, null);
    travelled = false;

    // Then the free demo table with the item page's button, and both files downloaded.
    await s.goto(url('/store?category=housing_furniture'));
    await s.getByTestId('store-item').filter({ hasText: '無料' }).locator('a').click();
    await s.waitForSelector('[data-testid=store-item-page]');
    assert.equal(await s.locator('h1').innerText(), '木のテーブル');
    await Promise.all([s.waitForURL((u) => u.search.includes('done=bought')), s.getByTestId('store-get').click()]);
    assert.match(await s.getByTestId('store-notice').innerText(), /入手しました/);
    assert.equal(await s.getByTestId('store-buy').getAttribute('data-state'), 'purchased');
    await s.goto(url('/mypage/purchases'));
    const bought = s.getByTestId('purchase').filter({ hasText: '木のテーブル' }).filter({ hasNotText: '限定色' });
    const [download] = await Promise.all([s.waitForEvent('download'), bought.getByTestId('purchase-download').click()]);
    assert.equal(download.suggestedFilename(), 'table.glb');
    const paid = s.getByTestId('purchase').filter({ hasText: '限定色' });
    assert.match(await paid.innerText(), /600円/, 'the price charged');
    const [file] = await Promise.all([s.waitForEvent('download'), paid.getByTestId('purchase-download').click()]);
    assert.equal(file.suggestedFilename(), 'table.glb');
    const [bonus] = await Promise.all([s.waitForEvent('download'), paid.getByTestId('purchase-set-download').click()]);
    assert.equal(bonus.suggestedFilename(), 'lantern-ribbon.zip', 'the set\'s ribbon, bought with the table');
    await screenshot(s, 'store-purchases-ja.png');

    // What the admin bought is furniture in their booth maker's palette: placed in a new booth.
    await s.goto(url('/mypage/booth-maker'));
    await s.locator('#scene-name').fill('買った家具のブース');
    await Promise.all([s.waitForURL(/\/mypage\/booth-maker\/scenes\/\d+$/), s.getByTestId('scene-create').click()]);
    await s.locator('[data-testid=booth-editor][data-state=ready]').waitFor({ timeout: 60_000 });
    await s.getByTestId('palette-place').and(s.getByRole('button', { name: /木のテーブル/ })).first().click();
    await s.getByTestId('placed-item').first().waitFor();
    assert.equal(await s.getByTestId('placed-item').count(), 1);
    await screenshot(s, 'store-bought-in-booth-ja.png', false);

    for (const p of [seller, visitor, staff, director]) assert.deepEqual(p.errors, []);
  } finally {
    if (travelled) await travel(staff.page, null);
    await Promise.all([seller.close(), visitor.close(), staff.close(), director.close()]);
  }
});
