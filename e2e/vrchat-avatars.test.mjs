/**
 * A VRChat avatar order moving through its statuses against the fakes (issue 31's "done when"),
 * in a real browser, once in Japanese and once in English: the demo exhibitor links their VRChat
 * account (a code in the fake VRChat's bio, through the API), orders their demo avatar
 * (こはくちゃん) converted, pays at the fake PayPal's page and comes back to "paid"; the reference
 * converter `scripts/demo-providers` runs beside the server converts it (the page shows
 * "converted" after a reload or two); then an upload worker — this test, speaking the converter
 * protocol with the demo's key — takes the upload step and reports the avatar on VRChat: the page
 * shows "finished" with one upload spent, at 390 px without sideways scrolling.
 */
// e2e-schedule: private — links the demo exhibitor's VRChat account and pays orders: a demo server of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, launchBrowser, messages, newPage, screenshot, signIn, url } from './support.mjs';

const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: 'vmarket-demo-2026' };
/** The demo exhibitor's VRChat account on the fake (scripts/fakes/vrchat.py DEMO_USERS). */
const KAEDE = 'usr_4f0c6a3e-8d1b-4f52-9a77-1c2e3d4b5a60';
/** The demo's converter key (scripts/demo-providers). */
const KEY = 'converter_demo';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * Calls the converter protocol as an upload worker.
 * @param {string} path @param {object} body
 */
async function worker(path, body) {
  const res = await fetch(url(`/api/v1/store/converter${path}`), {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'X-Converter-Worker': 'e2e-uploader', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: res.status === 204 ? null : await res.json() };
}

/**
 * Links the signed-in page's user to KAEDE unless linked already: the page's own API calls
 * (with its CSRF cookie), the code put into the fake's bio.
 * @param {import('playwright-core').Page} page
 */
async function ensureLinked(page) {
  const state = await page.evaluate(async () => (await fetch('/api/v1/store/vrchat/link')).json());
  if (state.link) return;
  const call = async (/** @type {string} */ path, /** @type {object} */ body) =>
    page.evaluate(
      async ([p, b]) => {
        const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
        const res = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify(b) });
        return { status: res.status, json: await res.json() };
      },
      /** @type {[string, object]} */ ([path, body]),
    );
  const begun = await call('/api/v1/store/vrchat/link', { vrchat_id: KAEDE });
  assert.equal(begun.status, 201, JSON.stringify(begun.json));
  const profile = begun.json.edit_bio_url;
  const tab = await page.context().newPage();
  await tab.goto(profile);
  const bio = tab.locator('#bio');
  await bio.fill(`${await bio.inputValue()} ${begun.json.challenge.code}`);
  await Promise.all([
    tab.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes('/_fake/home/user/')),
    tab.locator('button[type=submit]').click(),
  ]);
  const linked = await call('/api/v1/store/vrchat/link/verify', {});
  assert.equal(linked.status, 200, JSON.stringify(linked.json));
}

for (const lang of /** @type {const} */ (['ja', 'en'])) {
  test(`a VRChat avatar order is paid, converted and uploaded (${lang})`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    assert.ok(browser);
    const t = messages(lang);
    const prefix = lang === 'en' ? '/en' : '';
    const path = `${prefix}/mypage/vrchat/avatars`;
    const exhibitor = await newPage(browser);
    try {
      const page = exhibitor.page;
      await page.goto(url(path));
      await signIn(page, EXHIBITOR, (p) => p === path);
      await ensureLinked(page);
      await page.goto(url(path));
      const name = `Kohaku ${lang} ${Date.now().toString(36)}`;
      const form = page.getByTestId('vrca-order-form');
      await form.getByTestId('vrca-source').selectOption({ label: 'こはくちゃん（デモアバター）' });
      await form.getByTestId('vrca-name').fill(name);
      await form.getByTestId('vrca-pay-paypal').check();
      // To the fake PayPal's page, pay, and back: paid.
      await Promise.all([page.waitForURL((u) => u.pathname === '/checkoutnow'), form.getByTestId('vrca-order').click()]);
      await Promise.all([page.waitForURL((u) => u.pathname === path && u.search.includes('done=paid')), page.getByTestId('fake-paypal-pay').click()]);
      assert.equal((await page.getByTestId('vrca-notice').innerText()).trim(), t.vrchat_avatars.done.paid);
      const card = page.getByTestId('vrca-avatar').filter({ hasText: name });
      assert.equal(await card.count(), 1);

      // The reference converter (beside the server) converts it.
      let status = await card.getAttribute('data-status');
      for (let i = 0; i < 40 && status !== 'converted'; i++) {
        await page.waitForTimeout(500);
        await page.goto(url(path));
        status = await card.getAttribute('data-status');
      }
      assert.equal(status, 'converted', 'the reference converter converted it');
      assert.equal((await card.getByTestId('vrca-status').innerText()).trim(), t.vrchat_avatars.status.converted);
      await screenshot(page, `vrchat-avatars-${lang}-converted.png`);

      // An upload worker takes the upload and reports it on VRChat.
      const claimed = await worker('/jobs', { stage: 'upload' });
      assert.equal(claimed.status, 200, JSON.stringify(claimed.json));
      assert.equal(claimed.json.avatar.avatar_name, name);
      assert.equal(claimed.json.vrchat_user_id, KAEDE);
      const uploaded = await worker(`/jobs/${claimed.json.job}/uploaded`, { vrchat_avatar_id: 'avtr_5e1c7b2a-3d4f-4e6a-9b8c-7d6e5f4a3b2c' });
      assert.equal(uploaded.status, 200, JSON.stringify(uploaded.json));

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url(path));
      assert.equal(await card.getAttribute('data-status'), 'finished');
      assert.equal((await card.getByTestId('vrca-status').innerText()).trim(), t.vrchat_avatars.status.finished);
      assert.equal(
        (await card.getByTestId('vrca-uploads').innerText()).split('·')[0].trim(),
        t.vrchat_avatars.uploads_left.replace('{count}', '2'),
      );
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(wider, 0, 'no sideways scrolling at 390 px');
      await screenshot(page, `vrchat-avatars-${lang}-finished-390.png`);
      assert.deepEqual(exhibitor.errors, []);
    } finally {
      await exhibitor.close();
    }
  });
}
