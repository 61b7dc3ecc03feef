/**
 * Circles in a real browser, with the demo accounts of `vmarket seed demo`: the exhibitor
 * creates a circle (with a thumbnail), finds the friend by their exact vmarket ID and invites
 * them; the friend, signed in in a second browser context, sees the invitation, joins, and finds
 * the circle under the circles they joined; the owner then sees them among the members. Once in
 * Japanese, once in English, with screenshots. A last test photographs the circle pages at
 * desktop and phone width in both languages and checks that nothing overflows the phone screen.
 */
// e2e-schedule: shared-write — the demo exhibitor's and friend's circles and invitations (scripts/e2e)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { SUBMIT, TEST_TIMEOUT_MS, launchBrowser, newPage, screenshot, signIn, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The demo accounts' password, from the seed data (documented in the README). */
const DEMO_PASSWORD = JSON.parse(readFileSync(new URL('../src/seed/data/accounts.json', import.meta.url), 'utf8'))
  .password;
const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
const FRIEND = { email: 'friend@demo.vmarket.test', password: DEMO_PASSWORD, vmarket_id: 'tsukishiro_noa' };

/** @param {string} lang @returns {any} */
function messages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`.slice(-5);

/**
 * Opens `path` signed out, signs in as `account` on the way and waits to be back there.
 * @param {import('playwright-core').Page} page
 * @param {string} path
 * @param {{ email: string, password: string }} account
 */
async function openSignedIn(page, path, account) {
  await page.goto(url(path));
  await signIn(page, account, (p) => p === path);
}

/**
 * The owner creates a circle and invites the friend, who joins in a second context.
 * @param {'ja' | 'en'} lang
 */
async function story(lang) {
  assert.ok(browser);
  const m = messages(lang).circles;
  const prefix = lang === 'en' ? '/en' : '';
  const name = lang === 'en' ? `Lantern Makers ${STAMP}` : `ランタン部 ${STAMP}`;
  const owner = await newPage(browser);
  const friend = await newPage(browser);
  try {
    const page = owner.page;
    await openSignedIn(page, `${prefix}/mypage/circles`, EXHIBITOR);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/mypage/circle/new')), page.getByTestId('new-circle').click()]);
    const form = page.getByTestId('circle-form');
    await form.locator(lang === 'en' ? '#name_en' : '#name_ja').fill(name);
    await form
      .locator(lang === 'en' ? '#description_en' : '#description_ja')
      .fill(lang === 'en' ? 'We make lanterns for night worlds.' : '夜のワールドに灯すランタンを作っています。');
    await form.locator('#website_link').fill('https://lantern.example/');
    const thumbnail = await page.screenshot({ clip: { x: 0, y: 0, width: 400, height: 400 } });
    await form.locator('#thumbnail').setInputFiles({ name: 'thumbnail.png', mimeType: 'image/png', buffer: thumbnail });
    await Promise.all([page.waitForURL((u) => u.search.includes('done=created')), page.getByTestId('submit').click()]);
    assert.equal((await page.getByTestId('done').textContent())?.trim(), m.done.created);
    const card = page.getByTestId('circle').filter({ hasText: name });
    assert.match((await card.locator('img').getAttribute('src')) ?? '', /^\/media\/circles\/thumbnails\//);
    await screenshot(page, `circles-created-${lang}.png`);

    await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/members')), card.getByTestId('members').click()]);
    await page.locator('#vmarket_id').fill(FRIEND.vmarket_id);
    await Promise.all([page.waitForURL((u) => u.search.includes('vmarket_id=')), page.getByTestId('search').click()]);
    await Promise.all([page.waitForURL((u) => u.search.includes('done=invited')), page.getByTestId('invite').click()]);
    assert.equal((await page.getByTestId('done').textContent())?.trim(), m.done.invited);
    assert.equal(await page.getByTestId('pending-invitation').filter({ hasText: FRIEND.vmarket_id }).count(), 1);
    await screenshot(page, `circles-invited-${lang}.png`);

    // The friend, in another browser context, finds the invitation and joins.
    const other = friend.page;
    await openSignedIn(other, `${prefix}/mypage/circles/invitations`, FRIEND);
    const invitation = other.getByTestId('invitation').filter({ hasText: name });
    await invitation.waitFor();
    await screenshot(other, `circles-invitation-${lang}.png`);
    await Promise.all([
      other.waitForURL((u) => u.pathname.endsWith('/mypage/circles/joined')),
      invitation.getByTestId('approve').click(),
    ]);
    assert.equal((await other.getByTestId('done').textContent())?.trim(), m.done.approved);
    const joined = other.getByTestId('circle').filter({ hasText: name });
    assert.equal(await joined.count(), 1, 'the friend sees the circle among the joined ones');
    await Promise.all([other.waitForURL((u) => u.pathname.endsWith('/member/members')), joined.getByTestId('members').click()]);
    assert.equal(await other.getByTestId('leave').count(), 1);
    await screenshot(other, `circles-joined-${lang}.png`);

    // The owner sees the new member.
    await page.reload();
    const names = await page.getByTestId('member').getByTestId('person-name').allTextContents();
    assert.equal(names.length, 2, `owner and friend: ${names}`);
    assert.equal(await page.getByTestId('pending-invitation').filter({ hasText: FRIEND.vmarket_id }).count(), 0);
    await screenshot(page, `circles-members-${lang}.png`);
    assert.deepEqual([...owner.errors, ...friend.errors], [], 'uncaught page errors');
  } finally {
    await owner.close();
    await friend.close();
  }
}

test('the owner creates a circle and invites a friend, who joins (Japanese)', { timeout: TEST_TIMEOUT_MS * 2 }, () =>
  story('ja'),
);

test('the owner creates a circle and invites a friend, who joins (English)', { timeout: TEST_TIMEOUT_MS * 2 }, () =>
  story('en'),
);

test('circle pages at desktop and phone width in both languages', { timeout: TEST_TIMEOUT_MS * 3 }, async () => {
  assert.ok(browser);
  for (const [width, height, label] of /** @type {const} */ ([
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ])) {
    const context = await browser.newContext({ viewport: { width, height }, timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(url('/mypage/circles'));
      await signIn(page, EXHIBITOR, (p) => p === '/mypage/circles');
      const ids = await page.getByTestId('circle').evaluateAll((els) => els.map((e) => e.getAttribute('data-circle-id')));
      const suspended = await page
        .getByTestId('circle')
        .filter({ has: page.getByTestId('suspended-badge') })
        .getAttribute('data-circle-id');
      const open = ids.find((id) => id !== suspended);
      assert.ok(open && suspended, 'the demo exhibitor owns an open and a suspended circle');
      for (const prefix of ['', '/en']) {
        const lang = prefix ? 'en' : 'ja';
        /** @type {[string, string][]} */
        const pages = [
          ['/mypage/circles', 'list'],
          ['/mypage/circles/joined', 'joined'],
          ['/mypage/circles/invitations', 'invitations'],
          [`/mypage/circle/${open}/members?vmarket_id=demo_qa`, 'members'],
          [`/mypage/circle/${open}/edit`, 'edit'],
          [`/mypage/circle/${open}/preview`, 'preview'],
          [`/mypage/circle/${suspended}/members`, 'suspended'],
          ['/mypage', 'dashboard'],
        ];
        for (const [path, name] of pages) {
          await page.goto(url(`${prefix}${path}`));
          assert.equal(await page.locator('html').getAttribute('lang'), lang, path);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 1, `${prefix}${path} overflows the ${label} screen by ${overflow}px`);
          await screenshot(page, `circles-${name}-${lang}-${label}.png`);
        }
      }
      // The suspended circle explains itself.
      await page.goto(url(`/mypage/circle/${suspended}/members`));
      assert.equal(
        (await page.getByTestId('suspended').locator('strong').textContent())?.trim(),
        messages('ja').circles.suspended.title,
      );
      assert.equal(await page.locator(SUBMIT).filter({ hasText: messages('ja').circles.members.remove }).count(), 0);
    } finally {
      await context.close();
    }
  }
});
