/**
 * Paying with PayPal in a real browser, with the demo's fake PayPal (`scripts/demo-providers`):
 * two owners who won 2027Summer's first draw (see `payments-support.mjs`) each send the payment
 * form, approve at the fake PayPal and come back to `/checkout`, in Japanese and in English; the
 * page says paid, names the provider as a demo, links to the receipt, and a reload changes
 * nothing; the payment is in the payer's history. Also a payer who cancels at PayPal. Screenshots
 * at desktop and phone width; `/checkout` passes axe.
 *
 * Until the payer's pages (`/payment`, `/payment/confirm`) are merged from their branch, the
 * story starts at the form those pages render (`POST /payment/redirect`), sent from the page.
 */
// e2e-schedule: own-server — privateServer() (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LAUNCH_OPTIONS, SCREENSHOT_DIR, TEST_TIMEOUT_MS } from './support.mjs';
import { messages, photographAndAudit, privateServer, sendToProvider, wonApplications } from './payments-support.mjs';
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
/** @type {Awaited<ReturnType<typeof privateServer>> | undefined} */
let server;
before(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await chromium.launch(LAUNCH_OPTIONS);
  server = await privateServer('paypal');
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('owners pay with the demo PayPal in Japanese and English', { timeout: TEST_TIMEOUT_MS * 4 }, async () => {
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

      // Cancel at PayPal first: back on /checkout, nothing paid, the way back offered.
      await page.goto(server.url(`${prefix}/mypage/payment_history`));
      await sendToProvider(page, prefix, won[lang], 'paypal');
      await page.getByTestId('fake-paypal-banner').waitFor();
      await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/checkout`), page.getByTestId('fake-paypal-cancel').click()]);
      assert.equal(await page.getByTestId('checkout').getAttribute('data-outcome'), 'cancelled');
      assert.equal((await page.locator('h1').textContent())?.trim(), m.checkout.cancelled.title);
      assert.equal(await page.getByTestId('checkout-retry').getAttribute('href'), `${prefix}/payment?application_id=${won[lang]}`);
      await photographAndAudit(page, `payments-paypal-cancelled-${lang}`);

      // Pay: the same attempt, the PayPal page, back to /checkout.
      await sendToProvider(page, prefix, won[lang], 'paypal');
      assert.match(await page.getByTestId('fake-paypal-amount').innerText(), /8000 JPY/);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/payments-paypal-approval-${lang}.png`, fullPage: true });
      await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/checkout`), page.getByTestId('fake-paypal-pay').click()]);
      assert.equal(await page.getByTestId('checkout').getAttribute('data-outcome'), 'paid');
      assert.equal((await page.locator('h1').textContent())?.trim(), m.checkout.paid.title);
      assert.equal((await page.getByTestId('checkout-provider').textContent())?.trim(), m.demo.label.replace('{provider}', 'PayPal'));
      assert.equal((await page.getByTestId('checkout-amount').textContent())?.trim(), m.amount.replace('{amount}', '8,000'));
      const transaction = new URL(page.url()).searchParams.get('transaction');
      assert.equal(await page.getByTestId('checkout-complete').getAttribute('href'), `${prefix}/payment/complete?transaction=${transaction}`);
      await photographAndAudit(page, `payments-paypal-paid-${lang}`);
      await page.reload();
      assert.equal(await page.getByTestId('checkout').getAttribute('data-outcome'), 'paid', 'a reload changes nothing');

      await page.goto(server.url(`${prefix}/mypage/payment_history`));
      // The demo exhibitor's history also holds the seeded 2026Winter payment: find this one.
      const row = page.getByTestId('payment-row').filter({ has: page.locator(`a[href$="/${transaction}"]`) });
      assert.equal(await row.count(), 1);
      assert.match(await row.innerText(), /PayPal/);
      await row.getByRole('link').click();
      assert.equal((await page.getByTestId('receipt-transaction').textContent())?.trim(), transaction);
    }
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    for (const c of Object.values(contexts)) await c.close();
  }
});
