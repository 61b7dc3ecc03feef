/**
 * Swagger UI at /api-docs/ (the e2e server runs in development): it lists the documented
 * operations and runs one, under a Content-Security-Policy without inline scripts or styles.
 */
// e2e-schedule: shared-read — reads the API through Swagger UI (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * A strict policy enforced on top of whatever the server sends (two policies both apply): no
 * inline script or style, images from the site or `data:` (Swagger UI's select arrow).
 */
const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";

test('/api-docs/ shows Swagger UI for the API, without inline scripts or styles', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const redirect = await fetch(url('/api-docs'), { redirect: 'manual' });
  assert.equal(redirect.headers.get('location'), '/api-docs/');

  const { page, errors, close } = await newPage(browser);
  try {
    await page.route(url('/api-docs/**'), async (route) => {
      const res = await route.fetch({ maxRedirects: 0 });
      const own = res.headers()['content-security-policy'];
      const csp = own ? `${own}, ${STRICT_CSP}` : STRICT_CSP;
      await route.fulfill({ response: res, headers: { ...res.headers(), 'content-security-policy': csp } });
    });
    await page.addInitScript(() => {
      /** @type {string[]} */
      const seen = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });

    const res = await page.goto(url('/api-docs/'));
    assert.equal(res?.status(), 200);
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await page.locator('.info .title').innerText(), /vmarket API/);
    const events = page.locator('#operations-events-events_list');
    assert.match(await events.innerText(), /\/api\/v1\/events/);
    assert.ok((await page.locator('.opblock').count()) >= 40, 'every operation is listed');

    // Run GET /api/v1/events from the page: the demo events come back.
    await events.locator('.opblock-summary').click();
    await events.getByRole('button', { name: 'Try it out' }).click();
    await events.getByRole('button', { name: 'Execute' }).click();
    const status = events.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ state: 'visible' });
    assert.equal((await status.innerText()).trim(), '200');
    assert.match(await events.locator('.live-responses-table .microlight').first().innerText(), /2026Winter/);
    await screenshot(page, 'api-docs.png', false);

    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).cspViolations), [], 'CSP violations');
    assert.deepEqual(errors, [], 'uncaught page errors');
  } finally {
    await close();
  }
});
