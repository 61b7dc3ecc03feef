/**
 * Browser error reporting, end to end: a demo server of the story's own whose pages carry a
 * Sentry DSN (`sentry_browser_dsn`) pointing at a local envelope sink — this file's HTTP server,
 * which takes what Sentry's browser SDK posts to `/api/<project>/envelope/`. An error thrown in a
 * signed-in page of the site, and one in the console, arrive as events with the server's
 * environment and the front-end build's id as release; and nothing that reached the sink (events,
 * transactions, replays) holds the account's email, a cookie's value, the CSRF token or the
 * sign-in code and state the address carried.
 */
// e2e-schedule: own-server — privateServer() (scripts/e2e)
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { gunzipSync, inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { LAUNCH_OPTIONS, TEST_TIMEOUT_MS, signIn } from './support.mjs';
import { freePort, privateServer } from './payments-support.mjs';

const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: 'vmarket-demo-2026' };

/** @typedef {{ type: string, payload: Buffer }} Item */

/**
 * What the sink received: every envelope's raw body (ungzipped), its items, and its text with
 * replay recordings inflated when the SDK compressed them.
 */
const received = /** @type {{ body: Buffer, items: Item[], text: string }[]} */ ([]);

/**
 * An envelope's text, replay recordings (`{"segment_id":…}` then the events, deflated when the
 * SDK's compression worker ran) inflated.
 * @param {Buffer} body
 * @param {Item[]} parts
 */
function readable(body, parts) {
  let text = body.toString('utf8');
  for (const item of parts.filter((i) => i.type === 'replay_recording')) {
    const events = item.payload.subarray(item.payload.indexOf(10) + 1);
    if (events[0] !== 0x5b /* [ */) text += inflateSync(events).toString('utf8');
  }
  return text;
}

/**
 * The items of an envelope: a header line, then per item a header line and its payload (`length`
 * bytes when the header gives it, else up to the next newline).
 * @param {Buffer} body
 * @returns {Item[]}
 */
function items(body) {
  const out = [];
  let pos = body.indexOf(10) + 1;
  while (pos > 0 && pos < body.length) {
    const lineEnd = body.indexOf(10, pos) < 0 ? body.length : body.indexOf(10, pos);
    const header = JSON.parse(body.subarray(pos, lineEnd).toString('utf8'));
    pos = lineEnd + 1;
    let end = typeof header.length === 'number' ? pos + header.length : body.indexOf(10, pos);
    if (end < 0) end = body.length;
    out.push({ type: String(header.type), payload: body.subarray(pos, end) });
    pos = end + 1;
  }
  return out;
}

/** @type {import('node:http').Server | undefined} */
let sink;
/** @type {Awaited<ReturnType<typeof privateServer>> | undefined} */
let server;
/** @type {import('playwright-core').Browser | undefined} */
let browser;

before(async () => {
  const port = await freePort();
  sink = createServer((req, res) => {
    const chunks = /** @type {Buffer[]} */ ([]);
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const parts = items(body);
        received.push({ body, items: parts, text: readable(body, parts) });
      }
      res.writeHead(200, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'content-type': 'application/json',
      });
      res.end('{}');
    });
  });
  await new Promise((/** @type {(v?: unknown) => void} */ done) => sink?.listen(port, '127.0.0.1', done));
  server = await privateServer('sentry', { env: { ROCKET_SENTRY_BROWSER_DSN: `http://e2epublickey@127.0.0.1:${port}/7` } });
  browser = await chromium.launch(LAUNCH_OPTIONS);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  sink?.close();
});

/**
 * The first event the sink received whose exception says `marker`, waiting up to 30 s.
 * @param {string} marker
 */
async function eventSaying(marker) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const envelope of received) {
      for (const item of envelope.items) {
        if (item.type !== 'event') continue;
        const event = JSON.parse(item.payload.toString('utf8'));
        if (event.exception?.values?.some((/** @type {any} */ v) => String(v.value).includes(marker))) return event;
      }
    }
    assert.ok(Date.now() < deadline, `no event saying ${marker} reached the sink (${received.length} envelopes)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Waits until the page's reporting has started (Sentry's code loaded and initialised), then
 * throws `message` outside any handler of the page's own.
 * @param {import('playwright-core').Page} page
 * @param {string} message
 */
async function throwInPage(page, message) {
  // The SDK's global carrier appears when its code has loaded; `init` follows in the same task,
  // before the timer below fires.
  // @ts-expect-error not a property of window for TypeScript
  await page.waitForFunction(() => Boolean(window.__SENTRY__), null, { timeout: 20_000 });
  await page.evaluate((m) => {
    setTimeout(() => {
      throw new Error(m);
    }, 0);
  }, message);
}

test('errors in the site and the console reach the DSN scrubbed', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  assert.ok(browser && server);
  const context = await browser.newContext();
  const page = await context.newPage();

  // Without a sign-in the page already says where reports go; the CSP lets them go there.
  const res = await page.goto(server.url('/'));
  assert.match(await page.locator('meta[name="vmarket-sentry-dsn"]').getAttribute('content') ?? '', /^http:\/\/e2epublickey@127\.0\.0\.1:\d+\/7$/);
  assert.match(res?.headers()['content-security-policy'] ?? '', /connect-src 'self' blob: http:\/\/127\.0\.0\.1:\d+;/);
  const buildId = await page.locator('meta[name="vmarket-build-id"]').getAttribute('content');
  assert.ok(buildId);

  // The exhibitor, signed in, on an address with a sign-in code and state in it.
  await page.goto(server.url('/mypage'));
  await signIn(page, EXHIBITOR, (p) => p === '/mypage');
  await page.goto(server.url('/mypage?code=signin-code-e2e&state=signin-state-e2e'));
  const csrf = (await page.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
  assert.ok(csrf.length >= 16, 'the signed-in page carries a CSRF token');
  await throwInPage(page, `Site save failed for ${EXHIBITOR.email} with Bearer ${csrf}`);
  const event = await eventSaying('Site save failed');
  const value = event.exception.values.find((/** @type {any} */ v) => String(v.value).includes('Site save failed')).value;
  assert.equal(value, 'Site save failed for [Filtered] with Bearer [Filtered]');
  assert.equal(event.environment, 'development');
  assert.equal(event.release, buildId);
  assert.equal(event.user, undefined);
  // The SDK collects no query string (`dataCollection.urlQueryParams: false`); the scrub would
  // have filtered the code and state (telemetry/src/scrub.test.ts).
  assert.equal(event.request.url, server.url('/mypage'));
  const headers = Object.keys(event.request.headers ?? {}).map((h) => h.toLowerCase());
  assert.ok(headers.every((h) => h === 'user-agent'), `no header but the browser's name: ${headers}`);

  // The console: the staff account (a browser of its own), its own error, the same release.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await staffPage.goto(server.url('/admin'));
  await signIn(staffPage, server.staff, (p) => p === '/admin');
  await staffPage.locator('#main-content').first().waitFor({ state: 'visible', timeout: 30_000 });
  await throwInPage(staffPage, `Console failed for ${server.staff.email}`);
  const consoleEvent = await eventSaying('Console failed');
  assert.equal(consoleEvent.release, buildId);
  assert.ok(JSON.stringify(consoleEvent.exception).includes('Console failed for [Filtered]'));

  // A replay of the session with the error (1.0 on error) comes a few seconds later; then nothing
  // received may hold a secret of the session.
  const deadline = Date.now() + 30_000;
  while (!received.some((e) => e.items.some((i) => i.type === 'replay_recording'))) {
    assert.ok(Date.now() < deadline, 'a replay of the session with the error');
    await new Promise((r) => setTimeout(r, 250));
  }
  // The sign-in's cookies (session, token, CSRF, sign-in state); the others hold a language, a
  // handle or a timestamp (`vmarket_auth_recent`, which an event's own timestamp may repeat).
  const SECRET_COOKIES = ['vmarket_token', 'vmarket_sso', 'vmarket_csrf', 'vmarket_sign_in'];
  const signedIn = [...(await context.cookies()), ...(await staffContext.cookies())].filter((c) => SECRET_COOKIES.includes(c.name));
  assert.ok(signedIn.some((c) => c.name === 'vmarket_token'), `the session has cookies to leak: ${signedIn.map((c) => c.name)}`);
  const cookies = signedIn.map((c) => c.value).filter((v) => v.length >= 8);
  const secrets = [EXHIBITOR.email, server.staff.email, csrf, 'signin-code-e2e', 'signin-state-e2e', ...cookies];
  for (const envelope of received) {
    for (const secret of secrets) {
      const at = envelope.text.indexOf(secret);
      assert.ok(at < 0, `a report carried ${secret.slice(0, 12)}… (${secret.length} chars): …${envelope.text.slice(Math.max(0, at - 80), at + 40)}…`);
    }
  }
  await context.close();
  await staffContext.close();
});
