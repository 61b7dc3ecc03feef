/**
 * Shared helpers for the Playwright smoke tests (`node --test e2e/`, files `e2e/*.test.mjs`).
 * They drive Debian's chromium through playwright-core against a running, demo-seeded server:
 * VMARKET_E2E_BASE_URL (default http://127.0.0.1:8000); screenshots go to
 * VMARKET_E2E_SCREENSHOTS (default target/e2e-screenshots).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

/**
 * The site's messages in `lang` (`locales/<lang>.json`), for asserting what a page says.
 * @param {string} lang @returns {any}
 */
export function messages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

export const BASE_URL = (process.env.VMARKET_E2E_BASE_URL || 'http://127.0.0.1:8000').replace(/\/+$/, '');
export const SCREENSHOT_DIR = process.env.VMARKET_E2E_SCREENSHOTS || 'target/e2e-screenshots';
/** The server binary for CLI steps and own servers: what scripts/e2e runs (it follows CARGO_TARGET_DIR). */
export const VMARKET_BIN = process.env.VMARKET_BIN || `${process.env.CARGO_TARGET_DIR || 'target'}/debug/vmarket`;

/** Exactly these launch options (no Playwright-downloaded browser exists on these machines). */
export const LAUNCH_OPTIONS = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/**
 * How many times longer than their base every time limit of the browser tests is: scripts/test-all
 * sets it from the host's speed (a host twice as slow as the reference: 2), 1 by default.
 */
export const TIME_FACTOR = Math.max(1, Number(process.env.VMARKET_TIME_FACTOR) || 1);

/** Per-test time limit for node:test, generous enough for a cold server (× TIME_FACTOR). */
export const TEST_TIMEOUT_MS = 90_000 * TIME_FACTOR;

/** Japanese kana or kanji (also half-width katakana). */
export const JAPANESE_RE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/;

/** An absolute URL for a server path. @param {string} path */
export function url(path) {
  return BASE_URL + path;
}

/** Fails fast, with a useful message, when no server answers at BASE_URL. */
export async function assertServerUp() {
  try {
    await fetch(url('/'), { signal: AbortSignal.timeout(10_000), redirect: 'manual' });
  } catch (err) {
    throw new Error(
      `no vmarket server answers at ${BASE_URL} (${err instanceof Error ? err.message : String(err)}); ` +
        'start it seeded with demo data, or set VMARKET_E2E_BASE_URL',
    );
  }
}

/** Checks the server, creates the screenshot folder and launches chromium. */
export async function launchBrowser() {
  await assertServerUp();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch(LAUNCH_OPTIONS);
}

/**
 * A fresh page (own context: no cookies or storage from other tests) that records uncaught
 * page errors into `errors`.
 * @param {import('playwright-core').Browser} browser
 */
export async function newPage(browser) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Asia/Tokyo',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, errors, close: () => context.close() };
}

/**
 * Saves a screenshot as SCREENSHOT_DIR/name.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {boolean} [fullPage]
 */
export async function screenshot(page, name, fullPage = true) {
  await page.screenshot({ path: join(SCREENSHOT_DIR, name), fullPage });
}

/** The `lang` attribute of `<html>`. @param {import('playwright-core').Page} page */
export function htmlLang(page) {
  return page.locator('html').getAttribute('lang');
}

/** The account service's sign-in / sign-up page. */
export const ACCOUNT_PATH = '/account/auth/vmarket_account';
/** A form's submit button (a <button> without a type submits too). */
export const SUBMIT = 'button:not([type="button"]):not([type="reset"]), input[type="submit"]';

/**
 * A form of the account page, made visible first if the page shows it behind a tab.
 * @param {import('playwright-core').Page} page
 * @param {'sign-up' | 'sign-in'} which
 */
export async function accountForm(page, which) {
  const form = page.locator(`form[data-testid="${which}-form"]`);
  await form.waitFor({ state: 'attached' });
  const tab = page.getByTestId(`${which}-tab`);
  if (!(await form.isVisible()) && (await tab.count()) > 0) await tab.first().click();
  await form.waitFor({ state: 'visible' });
  return form;
}

/** The staff account `scripts/e2e` creates for the console tests. */
export const STAFF = {
  email: process.env.VMARKET_E2E_STAFF_EMAIL ?? '',
  password: process.env.VMARKET_E2E_STAFF_PASSWORD ?? '',
};

/** The director and QA tester accounts `scripts/e2e` creates for the console's role stories. */
export const DIRECTOR = {
  email: process.env.VMARKET_E2E_DIRECTOR_EMAIL ?? '',
  password: process.env.VMARKET_E2E_ROLE_PASSWORD ?? '',
};
export const QA_TESTER = {
  email: process.env.VMARKET_E2E_QA_EMAIL ?? '',
  password: process.env.VMARKET_E2E_ROLE_PASSWORD ?? '',
};

/**
 * Signs in on the account page the browser is on (or is being sent to) and waits until it is
 * back on a page whose path satisfies `landed`.
 * @param {import('playwright-core').Page} page
 * @param {{ email: string, password: string }} account
 * @param {(path: string) => boolean} landed
 */
export async function signIn(page, account, landed) {
  await page.waitForURL((u) => u.pathname === ACCOUNT_PATH);
  const form = await accountForm(page, 'sign-in');
  await form.locator('input[name="email"]').fill(account.email);
  await form.locator('input[name="password"]').fill(account.password);
  await Promise.all([
    page.waitForURL((u) => landed(u.pathname), { timeout: 20_000 }),
    form.locator(SUBMIT).first().click(),
  ]);
}

/**
 * A `width`×`height` PNG of one colour, for upload stories (no image library: the format is
 * small enough to write by hand).
 * @param {number} width @param {number} height @param {[number, number, number]} rgb
 */
export function solidPng(width, height, rgb = [21, 101, 192]) {
  const chunk = (/** @type {string} */ kind, /** @type {Buffer} */ data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(kind, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Staff move the server's clock to `at` (an ISO instant), or back to real time with `null`,
 * through the console's time-travel API, and wait until the server's clock shows it (a server
 * copies the offset into its clock about once a second). The CSRF token comes from the page
 * `staff` is on; a page without one is first sent to /mypage.
 * @param {import('playwright-core').Page} staff a page signed in as staff
 * @param {string | null} at
 * @param {(path: string) => string} [address] the server's address of a path (default `url`)
 */
export async function travel(staff, at, address = url) {
  const meta = staff.locator('meta[name=csrf-token]');
  if ((await meta.count()) === 0) await staff.goto(address('/mypage'));
  const headers = { 'X-CSRF-Token': (await meta.getAttribute('content')) ?? '' };
  const endpoint = address('/api/v1/admin/time_travel');
  const res = at
    ? await staff.request.put(endpoint, { data: { timestamp: at }, headers })
    : await staff.request.delete(endpoint, { headers });
  if (res.status() !== 200) throw new Error(`time travel to ${at ?? 'now'}: ${res.status()} ${await res.text()}`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const want = at ? Date.parse(at) : Date.now();
    const shown = Date.parse((await (await fetch(address('/api/example'))).json()).server_time);
    if (Math.abs(shown - want) < 60_000) return;
    if (Date.now() > deadline) throw new Error(`the server's clock did not move to ${at ?? 'now'} (shows ${new Date(shown).toISOString()})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Types a card into localstripe's fake card Element (number, month, year, CVC, postal code).
 * @param {import('playwright-core').Page} page
 */
export async function typeCard(page) {
  const inputs = page.getByTestId('card-element').locator('input');
  await inputs.first().waitFor();
  for (const [i, value] of ['4242424242424242', '12', '30', '123', '1500001'].entries()) {
    await inputs.nth(i).fill(value);
  }
}
