/**
 * Paying with GMO Payment Gateway in a real browser, with the demo's fake GMO (link type Plus,
 * `scripts/demo-providers`): two owners who won 2027Summer's first draw (see
 * `payments-support.mjs`) each send the payment form and land on GMO's payment page, in Japanese
 * and in English; a card that is declined first, then a good one; GMO's "return to the shop"
 * button posts back (cross-site) to `/checkout`, which says paid, names the provider as a demo
 * and links to the receipt; the payment is in the payer's history. Screenshots at desktop and
 * phone width; `/checkout` passes axe.
 *
 * Until the payer's pages (`/payment`, `/payment/confirm`) are merged from their branch, the
 * story starts at the form those pages render (`POST /payment/redirect`), sent from the page.
 */
// e2e-schedule: own-server — privateServer() (scripts/e2e)
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { LAUNCH_OPTIONS, SCREENSHOT_DIR, TEST_TIMEOUT_MS } from './support.mjs';
import { messages, photographAndAudit, privateServer, sendToProvider, wonApplications } from './payments-support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
/** @type {Awaited<ReturnType<typeof privateServer>> | undefined} */
let server;
before(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await chromium.launch(LAUNCH_OPTIONS);
  server = await privateServer('gmo');
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('owners pay with the demo GMO in Japanese and English', { timeout: TEST_TIMEOUT_MS * 4 }, async () => {
  assert.ok(browser && server);
  const b = browser;
  const context = async () =>
    b.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'Asia/Tokyo', bypassCSP: true });
  const contexts = { ja: await context(), en: await context(), staff: await context() };
  const pages = { ja: await contexts.ja.newPage(), en: await contexts.en.newPage(), staff: await contexts.staff.newPage() };
  /** @type {string[]} */
  const errors = [];
  for (const page of Object.values(pages)) page.on('pageerror', (err) => errors.push(err.message));
  try {
    const won = await wonApplications(server, pages);
    for (const lang of /** @type {const} */ (['ja', 'en'])) {
      const page = pages[lang];
      const m = messages(lang).payments;
      const prefix = lang === 'en' ? '/en' : '';
      await page.goto(server.url(`${prefix}/mypage/payment_history`));
      await sendToProvider(page, prefix, won[lang], 'smbc_gmo');
      await page.getByTestId('fake-gmo-banner').waitFor();
      assert.match(await page.getByTestId('fake-gmo-amount').innerText(), /8,000/);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/payments-gmo-page-${lang}.png`, fullPage: true });

      // A declined card: GMO says so; back at the shop, nothing is paid.
      await page.getByTestId('fake-gmo-declined').click();
      await page.getByTestId('fake-gmo-result').waitFor();
      await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/checkout`), page.getByTestId('fake-gmo-return').click()]);
      assert.equal(await page.getByTestId('checkout').getAttribute('data-outcome'), 'declined');
      assert.equal((await page.locator('h1').textContent())?.trim(), m.checkout.declined.title);
      await photographAndAudit(page, `payments-gmo-declined-${lang}`);

      // Again from the payment form: the same GMO page, a good card this time.
      await sendToProvider(page, prefix, won[lang], 'smbc_gmo');
      await page.getByTestId('fake-gmo-pay').click();
      await page.getByTestId('fake-gmo-result').waitFor();
      await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/checkout`), page.getByTestId('fake-gmo-return').click()]);
      assert.equal(await page.getByTestId('checkout').getAttribute('data-outcome'), 'paid');
      assert.equal((await page.locator('h1').textContent())?.trim(), m.checkout.paid.title);
      const provider = messages(lang).payments.provider.smbc_gmo;
      assert.equal((await page.getByTestId('checkout-provider').textContent())?.trim(), m.demo.label.replace('{provider}', provider));
      assert.equal((await page.getByTestId('checkout-amount').textContent())?.trim(), m.amount.replace('{amount}', '8,000'));
      const transaction = new URL(page.url()).searchParams.get('transaction');
      assert.equal(await page.getByTestId('checkout-complete').getAttribute('href'), `${prefix}/payment/complete?transaction=${transaction}`);
      await photographAndAudit(page, `payments-gmo-paid-${lang}`);

      await page.goto(server.url(`${prefix}/mypage/payment_history`));
      // The demo exhibitor's history also holds the seeded 2026Winter payment: find this one.
      const row = page.getByTestId('payment-row').filter({ has: page.locator(`a[href$="/${transaction}"]`) });
      assert.equal(await row.count(), 1);
      await row.getByRole('link').click();
      assert.equal((await page.getByTestId('receipt-transaction').textContent())?.trim(), transaction);
    }
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    for (const c of Object.values(contexts)) await c.close();
  }
});
