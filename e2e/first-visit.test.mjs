/**
 * A first-time exhibitor's whole way, on a phone (390 × 844), once in Japanese and once in
 * English (issue 26's "done when"): a new visitor opens the top page, finds 2027Summer (open for
 * entry) there, follows its "apply", signs up, makes a circle, applies after agreeing to the
 * event's terms, and reads the entry's status. Staff move the clock into the first draw's window
 * and draw (the CLI, as in entries.test.mjs); the visitor reads a truthful status — won, and when
 * payment opens. In the payment window the visitor pays by card (localstripe), opens the receipt,
 * sets its addressee and downloads the PDF, whose text (poppler's pdftotext) carries every field
 * of a qualified invoice. Then the visitor forgets the password: the reset mail arrives at a real
 * SMTP server (scripts/smtp-sink.py), its link sets a new password, and the new password signs in.
 *
 * Its own demo server (it moves the clock), with the shared localstripe and its own SMTP sink.
 * Every page is checked not to scroll sideways and to show its h1 on the first screen.
 */
// e2e-schedule: own-server — privateServer() and an SMTP sink of its own
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, VMARKET_BIN, accountForm, launchBrowser, screenshot, signIn, travel } from './support.mjs';
import { freePort, privateServer } from './payments-support.mjs';

const EVENT = '2027Summer';
/** The roomy glasshouse booth of 2027Summer (src/seed/data/entries.json): the draw reaches it. */
const PLAN = JSON.parse(readFileSync(new URL('../src/seed/data/entries.json', import.meta.url), 'utf8')).plans.find(
  (/** @type {any} */ p) => p.event === EVENT && p.key === 's-glasshouse-space',
);
const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`.slice(-6);
const PHONE = { width: 390, height: 844 };

/** @type {import('playwright-core').Browser | undefined} */
let browser;
/** @type {Awaited<ReturnType<typeof privateServer>> | undefined} */
let server;
/** @type {import('node:child_process').ChildProcess | undefined} */
let sink;
const mailDir = mkdtempSync(join(tmpdir(), 'vmarket-first-visit-mail-'));

before(async () => {
  const port = await freePort();
  sink = spawn('.venv/bin/python', ['-W', 'ignore', 'scripts/smtp-sink.py', mailDir, '--port', String(port)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    sink?.stdout?.on('data', (d) => String(d).includes('ready') && resolve(undefined));
    sink?.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code})`)));
  });
  browser = await launchBrowser();
  server = await privateServer('first-visit', {
    sharedStripe: true,
    env: { ROCKET_SMTP_URL: `smtp://127.0.0.1:${port}`, ROCKET_MAIL_FROM: 'Virtual Market <noreply@vmarket.test>' },
  });
});
after(async () => {
  await browser?.close();
  await server?.stop();
  sink?.stdin?.end();
  sink?.kill();
});

/** @param {string} path */
function url(path) {
  assert.ok(server);
  return server.url(path);
}

/** @param {string} lang @returns {any} */
function messages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

/**
 * Screenshots the phone screen, checking nothing scrolls sideways and the h1 is on it.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
async function look(page, name) {
  const { overflow, h1 } = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    h1: document.querySelector('h1')?.getBoundingClientRect().top ?? 0,
  }));
  assert.ok(overflow <= 1, `${page.url()} overflows the phone screen by ${overflow}px`);
  assert.ok(h1 < 300, `${page.url()}: the h1 starts ${h1}px down`);
  await screenshot(page, `first-visit-${name}.png`);
}

/** Runs `vmarket lottery <action> --event 2027Summer --round first` against this file's server. */
function lottery(/** @type {string} */ action) {
  assert.ok(server);
  return execFileSync(VMARKET_BIN, ['lottery', action, '--event', EVENT, '--round', 'first'], { encoding: 'utf8', env: server.env });
}

/**
 * The mails the sink has for `to`, newest last, as raw text.
 * @param {string} to
 */
function mailsTo(to) {
  return readdirSync(mailDir)
    .filter((f) => f.endsWith('.json') && existsSync(join(mailDir, f.replace(/\.json$/, '.eml'))))
    .sort()
    .filter((f) => JSON.parse(readFileSync(join(mailDir, f), 'utf8')).rcpt_tos.includes(to))
    .map((f) => readFileSync(join(mailDir, f.replace(/\.json$/, '.eml')), 'utf8'));
}

/**
 * A mail's text: each MIME part's body, base64 or quoted-printable undone (the mails are
 * multipart/alternative, text and HTML).
 * @param {string} raw
 */
function decoded(raw) {
  return raw
    .split(/\r?\n--[^\r\n]+\r?\n/)
    .map((part) => {
      const [head, ...body] = part.split(/\r?\n\r?\n/);
      const text = body.join('\n\n');
      if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
        return text
          .replace(/=\r?\n/g, '')
          .replace(/(?:=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
      }
      return text;
    })
    .join('\n');
}

/**
 * One visitor, in one language, on a phone.
 * @param {'ja' | 'en'} lang
 */
async function visitor(lang) {
  assert.ok(browser);
  const context = await browser.newContext({ viewport: PHONE, locale: lang === 'ja' ? 'ja-JP' : 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const prefix = lang === 'en' ? '/en' : '';
  const who = {
    lang,
    prefix,
    m: messages(lang),
    email: `first-${lang}-${STAMP}@example.com`,
    password: `first-visit-${STAMP}-pw`,
    circle: lang === 'ja' ? `はじめて工房${STAMP}` : `First Light ${STAMP}`,
    /** @type {number} */
    fee: PLAN.fee,
  };
  return { context, page, errors, ...who };
}

/** @typedef {Awaited<ReturnType<typeof visitor>>} Visitor */

/** From the top page to a sent entry. @param {Visitor} v */
async function findAndApply(v) {
  const { page, m, prefix } = v;
  await page.goto(url(`${prefix}/`));
  await look(page, `top-${v.lang}`);
  // The next event is one tap away: the header's strip of what is open, or the top page's list.
  const link = page.locator(`[data-testid=header-open-event][href$="/${EVENT}"], [data-testid=elsewhere-event][href$="/${EVENT}"]`).first();
  await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/${EVENT}`), link.click()]);
  await look(page, `event-${v.lang}`);
  // Entry is open: "apply" leads to sign-in, then to the events one may apply to.
  await Promise.all([page.waitForURL((u) => u.pathname.startsWith('/account/')), page.getByTestId('apply-link').first().click()]);
  const form = await accountForm(page, 'sign-up');
  await form.locator('input[name=email]').fill(v.email);
  await form.locator('input[name=vmarket_id]').fill(`first_${v.lang}_${STAMP}`);
  await form.locator('input[name=name_ja]').fill('はじめて');
  await form.locator('input[name=name_en]').fill('First');
  await form.locator('input[name=password]').fill(v.password);
  const confirm = form.locator('input[name=password_confirmation]');
  if ((await confirm.count()) > 0) await confirm.fill(v.password);
  const terms = form.locator('input[type=checkbox]');
  for (let i = 0; i < (await terms.count()); i++) await terms.nth(i).check();
  await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/mypage/events`), form.locator('button[type=submit]').first().click()]);
  await look(page, `events-no-circle-${v.lang}`);

  // No circle yet: the page says so and links the form.
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/circle/new')), page.getByTestId('no-circles').locator('a').click()]);
  await page.getByTestId('circle-form').locator(`#name_${v.lang}`).fill(v.circle);
  await look(page, `circle-new-${v.lang}`);
  await Promise.all([page.waitForURL((u) => u.search.includes('done=created')), page.getByTestId('submit').click()]);

  await page.goto(url(`${prefix}/mypage/events`));
  const card = page.locator(`[data-testid=entry-event][data-permalink="${EVENT}"]`);
  const row = card.getByTestId('entry-circle').filter({ hasText: v.circle });
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/new')), row.getByTestId('apply').click()]);
  const planName = v.lang === 'en' ? PLAN.name_en : PLAN.name_ja;
  const value = await page
    .locator('#plan_1 option')
    .evaluateAll((els, n) => els.filter((e) => (e.textContent ?? '').startsWith(n)).map((e) => e.getAttribute('value')), planName);
  await page.locator('#plan_1').selectOption(/** @type {string} */ (value[0]));
  // The terms: three documents, and no entry without agreeing.
  assert.equal(await page.getByTestId('terms-document').count(), 3);
  await Promise.all([page.waitForEvent('load'), page.getByTestId('submit').click()]);
  const refusal = page.locator('[data-field=agreed_terms]');
  assert.equal(await refusal.count(), 1, 'without agreeing the form comes back, the refusal beside the box');
  assert.ok((await refusal.textContent())?.trim());
  await page.locator('#plan_1').selectOption(/** @type {string} */ (value[0]));
  await page.getByTestId('agree-terms').check();
  await look(page, `apply-${v.lang}`);
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/details')), page.getByTestId('submit').click()]);
  await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/apply/complete')), page.getByTestId('confirm').click()]);
  assert.equal((await page.locator('h1').textContent())?.trim(), m.entries.complete.heading);
  await look(page, `applied-${v.lang}`);
}

/** The entry's first status line and its next step. @param {Visitor} v */
async function status(v) {
  const { page, prefix } = v;
  await page.goto(url(`${prefix}/mypage/entry_history/${EVENT}/apply`));
  const entry = page.getByTestId('entry').filter({ hasText: v.circle });
  const line = entry.getByTestId('status').first();
  const next = entry.getByTestId('next-step').first();
  return {
    status: (await line.textContent())?.trim(),
    next: (await next.count()) > 0 ? (await next.textContent())?.trim() : undefined,
    kind: (await next.count()) > 0 ? await next.getAttribute('data-kind') : undefined,
    pay: await entry.getByTestId('pay').count(),
  };
}

/** Pays the win by card, downloads the PDF receipt and reads it. @param {Visitor} v */
async function payAndDownload(v) {
  const { page, prefix, m } = v;
  await page.goto(url(`${prefix}/mypage/entry_history/${EVENT}/apply`));
  const entry = page.getByTestId('entry').filter({ hasText: v.circle });
  await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/payment`), entry.getByTestId('pay').first().click()]);
  await look(page, `pay-${v.lang}`);
  await page.locator('#payment_type_stripe').check();
  await Promise.all([page.waitForURL((u) => u.pathname === `${prefix}/payment/confirm`), page.getByTestId('next').click()]);
  const inputs = page.getByTestId('card-element').locator('input');
  await inputs.first().waitFor();
  for (const [i, value] of ['4242424242424242', '12', '30', '123', '1500001'].entries()) await inputs.nth(i).fill(value);
  await look(page, `card-${v.lang}`);
  await Promise.all([
    page.waitForURL((u) => u.pathname === `${prefix}/payment/complete`, { timeout: 90_000 }),
    page.getByTestId('pay-button').click(),
  ]);
  assert.equal((await page.getByTestId('complete-heading').textContent())?.trim(), m.payments.complete.title_paid);
  await look(page, `paid-${v.lang}`);

  // The receipt: made out to a company, then downloaded as a PDF.
  const transaction = new URL(page.url()).searchParams.get('transaction');
  await page.goto(url(`${prefix}/mypage/payment_history/${transaction}`));
  const addressee = v.lang === 'ja' ? `株式会社はじめて${STAMP}` : `First Light Ltd ${STAMP}`;
  await page.locator('#addressee').fill(addressee);
  await Promise.all([page.waitForURL((u) => u.search.includes('done=addressee')), page.getByTestId('addressee-save').click()]);
  await look(page, `receipt-${v.lang}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('receipt-pdf').click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'vmarket-receipt-')), download.suggestedFilename());
  await download.saveAs(file);
  assert.equal(download.suggestedFilename(), `receipt-${transaction}.pdf`);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  assert.match(info, /^Pages:\s+1$/m);
  assert.match(info, /A4/);
  const r = m.payments.receipt;
  const yen = (/** @type {string} */ n) => m.payments.amount.replace('{amount}', n);
  for (const field of [
    r.title,
    r.to.replace('{name}', addressee),
    r.rate.replace('{rate}', '10'),
    yen(v.fee.toLocaleString('en-US')),
    // The tax in the tax-included fee at 10 %, rounded down once.
    yen(Math.floor((v.fee * 10) / 110).toLocaleString('en-US')),
    r.tax_of_which,
    r.description,
    m.payments.fields.paid_at,
    /** @type {string} */ (transaction),
    r.issuer,
    `${r.registration_number} T0000000000000`,
    v.circle,
  ]) {
    assert.ok(text.includes(field), `${field} is not in the ${v.lang} PDF:\n${text}`);
  }
  assert.match(text, /20\d\d\/\d\d\/\d\d \d\d:\d\d/, 'the date paid');
}

/** Forgets the password: the mail, its link, a new password, and it signs in. @param {Visitor} v */
async function resetPassword(v) {
  const { page, m } = v;
  const p = m.account.password_pages;
  await page.context().clearCookies();
  await page.goto(url(`${v.prefix}/mypage`));
  await page.waitForURL((u) => u.pathname.startsWith('/account/'));
  await Promise.all([page.waitForURL((u) => u.pathname === '/account/auth/password/forgot'), page.getByTestId('forgot-password').click()]);
  await look(page, `forgot-${v.lang}`);
  const before = mailsTo(v.email).length;
  await page.getByTestId('forgot-form').locator('input[name=email]').fill(v.email);
  await Promise.all([page.waitForURL((u) => u.pathname === '/account/auth/password/forgot'), page.getByTestId('forgot-form').locator('button[type=submit]').click()]);
  assert.ok(await page.getByTestId('password-sent').isVisible());
  const deadline = Date.now() + 30_000;
  while (mailsTo(v.email).length === before) {
    assert.ok(Date.now() < deadline, 'the reset mail arrived at the SMTP server');
    await new Promise((r) => setTimeout(r, 200));
  }
  const mail = decoded(/** @type {string} */ (mailsTo(v.email).at(-1)));
  const found = mail.match(/https?:\/\/\S+\/account\/auth\/password\/reset\?\S*token=[0-9a-f]+/)?.[0];
  assert.ok(found, `a reset link in the mail:\n${mail}`);
  assert.ok(found.startsWith(url('/')), `the link leads to this site: ${found}`);
  const link = found;
  await page.goto(link);
  const fresh = `${v.password}-new`;
  const form = page.getByTestId('reset-form');
  for (const input of await form.locator('input[type=password]').all()) await input.fill(fresh);
  await look(page, `reset-${v.lang}`);
  await Promise.all([page.waitForURL((u) => u.pathname === '/account/auth/password/reset'), form.locator('button[type=submit]').click()]);
  assert.equal((await page.getByTestId('password-done').textContent())?.trim(), p.done.reset);
  // The link was single-use; the new password signs in.
  await page.goto(link);
  assert.equal(await page.getByTestId('password-invalid').count(), 1, 'a used link is refused');
  await page.goto(url(`${v.prefix}/mypage`));
  await signIn(page, { email: v.email, password: fresh }, (path) => path === `${v.prefix}/mypage`);
  await look(page, `signed-in-again-${v.lang}`);
}

test('a first-time exhibitor finds the next event, applies, pays and downloads a PDF receipt, on a phone, in both languages', { timeout: TEST_TIMEOUT_MS * 8 }, async () => {
  assert.ok(browser && server);
  const visitors = [await visitor('ja'), await visitor('en')];
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  let travelled = false;
  try {
    for (const v of visitors) {
      await findAndApply(v);
      const s = await status(v);
      assert.equal(s.status, v.m.entries.status.applied, v.lang);
      assert.equal(s.kind, 'first_draw', `${v.lang}: the next step is the first draw`);
    }

    // Staff: into the first draw's window; the draw, from the command line.
    const ev = await (await fetch(url('/api/v1/events/14'))).json();
    const phase = (/** @type {string} */ type) => Date.parse(ev.event_phases.find((/** @type {any} */ p) => p.phase_type === type).phase_timestamp);
    await staff.goto(url('/admin'));
    await signIn(staff, server.staff, (p) => p === '/admin');
    await travel(staff, new Date(phase('first_lottery_start') + 3_600_000).toISOString(), url);
    travelled = true;
    assert.match(lottery('commit'), /[0-9a-f]{64}/);
    lottery('preview');
    lottery('publish');

    // Won, and nothing to pay yet: the status says when payment opens.
    for (const v of visitors) {
      const s = await status(v);
      assert.equal(s.status, v.m.entries.status.first_win, v.lang);
      assert.equal(s.kind, 'payment_opens', v.lang);
      assert.equal(s.pay, 0, `${v.lang}: no pay button before the window`);
      await look(v.page, `won-${v.lang}`);
    }

    // In the payment window: pay, and the receipt as a PDF.
    await travel(staff, new Date(phase('first_payment_start') + 3_600_000).toISOString(), url);
    for (const v of visitors) {
      const s = await status(v);
      assert.equal(s.kind, 'pay_by', v.lang);
      await payAndDownload(v);
      const paid = await status(v);
      assert.equal(paid.status, v.m.entries.status.paid, v.lang);
    }

    for (const v of visitors) await resetPassword(v);
    for (const v of visitors) assert.deepEqual(v.errors, [], `${v.lang}: uncaught page errors`);
  } finally {
    if (travelled) await travel(staff, null, url).catch(() => {});
    for (const v of visitors) await v.context.close();
    await staffContext.close();
  }
});
