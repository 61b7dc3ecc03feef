/**
 * Box submissions in a real browser (issue 31's "done when"), once in Japanese and once in
 * English: the demo exhibitor submits their demo avatar for a box — the form first refuses a
 * missing author and keeps what was typed — and sends it for review; the demo admin returns it
 * in the console (`box_submissions`) with a reason, after looking at the model in 3-D; the exhibitor reads the reason on the page,
 * fixes the submission and sends it again; the admin approves it and then publishes it; the
 * exhibitor sees it on display, at 390 px without sideways scrolling, and among the boxes on
 * the public page. Each language withdraws
 * nothing and uses one of the three places, so a run holds two submissions.
 */
// e2e-schedule: private — adds submissions and reviews them as staff: a demo server of its own (scripts/e2e)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, signIn, url } from './support.mjs';

const DEMO_PASSWORD = 'vmarket-demo-2026';
const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
const ADMIN = { email: 'admin@demo.vmarket.test', password: DEMO_PASSWORD };

/** @param {'ja' | 'en'} lang */
function catalogue(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

const CONSOLE = catalogue('ja');

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

for (const lang of /** @type {const} */ (['ja', 'en'])) {
  test(`a box submission is returned, fixed, approved and published (${lang})`, { timeout: TEST_TIMEOUT_MS * 3 }, async () => {
    assert.ok(browser);
    const t = catalogue(lang);
    const prefix = lang === 'en' ? '/en' : '';
    const exhibitor = await newPage(browser);
    const staff = await newPage(browser);
    try {
      const page = exhibitor.page;
      const list = `${prefix}/mypage/box-submissions`;
      await page.goto(url(`${list}/new`));
      await signIn(page, EXHIBITOR, (p) => p === `${list}/new`);
      const name = lang === 'en' ? 'Kohaku in a box' : 'はこ入りこはく';
      await page.locator('#name').fill(name);
      await page.locator('input[name=pose_id][value="4"]').check();
      await page.getByTestId('box-save').click();
      await page.waitForSelector('[data-testid=form-notice]');
      assert.deepEqual(await page.locator('.field__error').evaluateAll((els) => els.map((e) => e.getAttribute('data-field'))), ['author']);
      assert.equal(await page.locator('#name').inputValue(), name, 'what was typed is kept');
      await page.locator('#author').fill(lang === 'en' ? 'Tomoshibi Works' : 'ともしび工房');
      await page.locator('#website').fill('https://example.com/kohaku');
      await Promise.all([page.waitForURL((u) => u.search.includes('done=created')), page.getByTestId('box-save').click()]);
      const row = page.getByTestId('box-row').filter({ hasText: name });
      assert.equal(await row.getAttribute('data-status'), 'not_published');
      await Promise.all([page.waitForURL((u) => u.search.includes('done=submitted')), row.getByTestId('box-submit').click()]);
      assert.equal((await row.getByTestId('box-status').innerText()).trim(), t.box.status.in_review);

      // Staff return it with a reason in the console.
      const admin = staff.page;
      await admin.goto(url('/admin'));
      await signIn(admin, ADMIN, (p) => p === '/admin');
      /** Opens the console's edit form of the submission named `name`; answers its id. */
      const open = async () => {
        await admin.goto(url('/admin/box_submissions'));
        const line = admin.locator('.RaDatagrid-row').filter({ hasText: name });
        await line.first().waitFor();
        await Promise.all([admin.waitForURL(/\/admin\/box_submissions\/\d+\/show$/), line.first().click()]);
        const id = new URL(admin.url()).pathname.split('/')[3];
        await admin.goto(url(`/admin/box_submissions/${id}`));
        await admin.locator('input[name="status"]').waitFor({ state: 'attached' });
        return id;
      };
      /** Sets the status and saves. @param {string} id @param {string} status */
      const decide = async (id, status) => {
        await admin.locator('.MuiInputBase-root', { has: admin.locator('input[name="status"]') }).locator('[role="combobox"]').click();
        // The console speaks Japanese until staff switch it, whatever the site's language.
        await admin.getByRole('option', { name: CONSOLE.box.status[status], exact: true }).click();
        await Promise.all([
          admin.waitForURL((u) => u.pathname === `/admin/box_submissions/${id}/show`, { timeout: 20_000 }),
          admin.locator('form button[type="submit"]').first().click(),
        ]);
      };
      const reason = lang === 'en' ? 'The face texture did not load; please re-export the VRM.' : '顔のテクスチャが読み込めていません。VRMを書き出し直してください。';
      const id = await open();
      // Before deciding, staff look at the model itself, drawn in 3-D on the show page.
      await admin.goto(url(`/admin/box_submissions/${id}/show`));
      await admin.getByTestId('console-model-open').click();
      await admin.locator('[data-testid=console-model-preview][data-state=ready]').waitFor({ timeout: 60_000 });
      const metres = [...(await admin.getByTestId('console-model-status').innerText()).matchAll(/([\d.]+) m/g)].map((m) => Number(m[1]));
      assert.equal(metres.length, 3, 'width, height and depth are shown');
      assert.ok(metres[1] > 0.5 && metres[1] < 3, `an avatar's height: ${metres[1]} m`);
      await screenshot(admin, `box-${lang}-console-model.png`);
      await admin.goto(url(`/admin/box_submissions/${id}`));
      await admin.locator('textarea[name="rejected_reason"]').waitFor();
      await admin.locator('textarea[name="rejected_reason"]').fill(reason);
      await screenshot(admin, `box-${lang}-console-return.png`);
      await decide(id, 'review_rejected');

      // The exhibitor reads the reason, fixes the face and sends it again.
      await page.goto(url(list));
      assert.equal(await row.getAttribute('data-status'), 'review_rejected');
      assert.match(await row.getByTestId('box-reason').innerText(), new RegExp(reason.slice(0, 10)));
      await row.getByTestId('box-edit').click();
      await page.waitForSelector('[data-testid=box-form]');
      await page.locator('input[name=face_id][value="2"]').check();
      await Promise.all([page.waitForURL((u) => u.search.includes('done=saved')), page.getByTestId('box-save').click()]);
      await Promise.all([page.waitForURL((u) => u.search.includes('done=submitted')), row.getByTestId('box-submit').click()]);
      assert.equal(await row.getAttribute('data-status'), 'in_review');

      // Approved, then published.
      await open();
      await decide(id, 'review_approved');
      await admin.goto(url(`/admin/box_submissions/${id}`));
      await admin.locator('input[name="status"]').waitFor({ state: 'attached' });
      await decide(id, 'published');
      await page.goto(url(list));
      assert.equal(await row.getAttribute('data-status'), 'published');
      assert.equal((await row.getByTestId('box-status').innerText()).trim(), t.box.status.published);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(wider, 0, 'no sideways scrolling at 390 px');
      await screenshot(page, `box-${lang}-published-390.png`);
      // Visitors see it among the boxes on display.
      await page.getByTestId('boxes-link').click();
      await page.getByTestId('box-name').filter({ hasText: name }).waitFor();
      const widerBoxes = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(widerBoxes, 0, 'no sideways scrolling on the boxes at 390 px');
      await screenshot(page, `box-${lang}-on-display-390.png`);
      for (const p of [exhibitor, staff]) assert.deepEqual(p.errors, []);
    } finally {
      await Promise.all([exhibitor.close(), staff.close()]);
    }
  });
}
