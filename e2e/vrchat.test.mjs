/**
 * Linking a VRChat account in a real browser (issue 31), once in Japanese and once in English,
 * against the demo's fake VRChat (scripts/demo-providers): the demo exhibitor first mistypes the
 * id and is told so beside the field with the input kept, then names their account, gets a code,
 * is told the code is not in the bio yet, opens their VRChat profile (the fake's page, a new tab)
 * and puts the code into the bio, confirms and sees the account linked — at 390 px without
 * sideways scrolling — and unlinks it, so each language starts from nothing.
 */
// e2e-schedule: shared-write — links and unlinks the demo exhibitor's VRChat account; nothing else reads it
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, signIn, url } from './support.mjs';

const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: 'vmarket-demo-2026' };
/** The demo exhibitor's VRChat account on the fake (scripts/fakes/vrchat.py DEMO_USERS). */
const KAEDE = 'usr_4f0c6a3e-8d1b-4f52-9a77-1c2e3d4b5a60';

/** @param {'ja' | 'en'} lang */
function catalogue(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

for (const lang of /** @type {const} */ (['ja', 'en'])) {
  test(`a VRChat account is linked by a code in its bio, and unlinked (${lang})`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    assert.ok(browser);
    const t = catalogue(lang);
    const prefix = lang === 'en' ? '/en' : '';
    const exhibitor = await newPage(browser);
    try {
      const page = exhibitor.page;
      const path = `${prefix}/mypage/vrchat`;
      await page.goto(url(path));
      await signIn(page, EXHIBITOR, (p) => p === path);
      await page.locator('#vrchat_id').fill('kaede');
      await page.getByTestId('vrchat-start').click();
      await page.waitForSelector('[data-testid=form-notice]');
      assert.deepEqual(await page.locator('.field__error').evaluateAll((els) => els.map((e) => e.getAttribute('data-field'))), ['vrchat_id']);
      assert.equal(await page.locator('#vrchat_id').inputValue(), 'kaede', 'what was typed is kept');

      await page.locator('#vrchat_id').fill(`https://vrchat.com/home/user/${KAEDE}`);
      await Promise.all([page.waitForURL((u) => u.search.includes('done=started')), page.getByTestId('vrchat-start').click()]);
      const code = (await page.getByTestId('vrchat-code').innerText()).trim();
      assert.match(code, /^vmarket-[a-z2-9]{10}$/);
      assert.match(await page.locator('[data-testid=vrchat-challenge] h2').innerText(), /Kaede_Kohaku/);
      await Promise.all([page.waitForURL((u) => u.search.includes('error=vrchat_code_not_in_bio')), page.getByTestId('vrchat-verify').click()]);
      assert.equal((await page.getByTestId('vrchat-refused').innerText()).trim(), t.errors.vrchat_code_not_in_bio);
      await page.setViewportSize({ width: 390, height: 844 });
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(wider, 0, 'no sideways scrolling at 390 px');
      await screenshot(page, `vrchat-${lang}-code-390.png`);

      // On VRChat (the fake's profile page, in a new tab): the code goes into the bio.
      const [profile] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('vrchat-profile-link').click()]);
      await profile.waitForLoadState();
      const bio = profile.locator('#bio');
      await bio.fill(`${await bio.inputValue()} ${code}`);
      // Saved: the fake answers the form with a redirect to the page again. (The tab stays open
      // until the context closes: closing it while that page loads could hang.)
      await Promise.all([
        profile.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes('/_fake/home/user/')),
        profile.locator('button[type=submit]').click(),
      ]);
      assert.match(await profile.locator('#bio').inputValue(), new RegExp(code));

      await Promise.all([page.waitForURL((u) => u.search.includes('done=linked')), page.getByTestId('vrchat-verify').click()]);
      assert.equal((await page.getByTestId('vrchat-notice').innerText()).trim(), t.vrchat.done.linked);
      assert.equal((await page.getByTestId('vrchat-name').innerText()).trim(), 'Kaede_Kohaku');
      const wider2 = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(wider2, 0, 'no sideways scrolling at 390 px, linked');
      await screenshot(page, `vrchat-${lang}-linked-390.png`);

      await Promise.all([page.waitForURL((u) => u.search.includes('done=unlinked')), page.getByTestId('vrchat-unlink').click()]);
      assert.equal(await page.getByTestId('vrchat-linked').count(), 0);
      assert.deepEqual(exhibitor.errors, []);
    } finally {
      await exhibitor.close();
    }
  });
}
