/**
 * What the payment stories (`payments-paypal.test.mjs`, `payments-gmo.test.mjs`) share. Each
 * story runs its own demo server (a fresh SQLite database seeded with the demo data, the demo's
 * payment providers of `scripts/demo-providers` on free ports), because it moves that server's
 * clock through a whole lottery: the shared e2e server's clock and draws belong to the other
 * stories. Two owners win the first draw of 2027Summer there — the demo exhibitor's ともしび工房
 * (paid in Japanese) and a new circle of the demo friend (paid in English) — and the clock stops
 * inside the first payment window.
 *
 * The payer's pages (`/payment`, `/payment/confirm`) are built on another branch; until they are
 * merged, a story sends the form `/payment/confirm` renders (`POST /payment/redirect` with
 * `application_id`, `payment_type` and the CSRF field) from the signed-in page itself.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VMARKET_BIN, screenshot, signIn, travel } from './support.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const DEMO_PASSWORD = JSON.parse(readFileSync(new URL('../src/seed/data/accounts.json', import.meta.url), 'utf8'))
  .password;
export const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD };
export const FRIEND = { email: 'friend@demo.vmarket.test', password: DEMO_PASSWORD };
const EVENT = '2027Summer';
const PLAN = 'ガラスの大温室 ブース';

/** @param {string} lang @returns {any} */
export function messages(lang) {
  return JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'));
}

/** @returns {Promise<number>} a port nobody listens on right now */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A demo server of this story's own, with the demo's payment providers: no other story's time
 * travel can move its clock. With `sharedStripe`, it pays through the localstripe `scripts/e2e`
 * started (its `ROCKET_STRIPE_*` settings), which the story can then ask about the charges.
 * `env` adds settings of the story's own (`ROCKET_*`).
 * @param {string} name
 * @param {{ sharedStripe?: boolean, env?: Record<string, string> }} [options]
 */
export async function privateServer(name, options = {}) {
  const work = mkdtempSync(join(tmpdir(), `vmarket-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  /** @type {Record<string, string>} */
  const env = {};
  const kept = (/** @type {string} */ k) => !k.startsWith('ROCKET_') || (options.sharedStripe && k.startsWith('ROCKET_STRIPE_'));
  for (const [k, v] of Object.entries(process.env)) if (kept(k) && v !== undefined) env[k] = v;
  Object.assign(env, {
    ROCKET_DATABASE_URL: `sqlite://${work}/pay.db?mode=rwc`,
    ROCKET_DATA_DIR: join(work, 'data'),
    ROCKET_PORT: String(port),
    ROCKET_SITE_URL: base,
    ROCKET_LOG_LEVEL: 'critical',
    VMARKET_DEMO_PROVIDER_LOGS: join(work, 'providers'),
    ...options.env,
  });
  execFileSync(VMARKET_BIN, ['seed', 'demo'], { env, stdio: 'ignore' });
  const staff = { email: `pay-staff-${name}@example.com`, password: `pay-staff-${Math.random().toString(36).slice(2)}` };
  execFileSync(
    VMARKET_BIN,
    ['user', 'create', '--email', staff.email, '--password', staff.password, '--role', 'admin', '--vmarket-id', `pay_staff_${name}`],
    { env, stdio: 'ignore' },
  );
  const log = openSync(join(work, 'server.log'), 'w');
  const child = spawn('scripts/demo-providers', ['--free-ports', '--', VMARKET_BIN, 'serve'], {
    env,
    stdio: ['ignore', log, log],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/_ah/warmup`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the ${name} server did not start: ${readFileSync(join(work, 'server.log'), 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    env,
    staff,
    /** @param {string} path */
    url: (path) => base + path,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * The CSRF token of the signed-in page (its `<meta name="csrf-token">`).
 * @param {import('playwright-core').Page} page
 */
async function csrf(page) {
  return (await page.locator('meta[name=csrf-token]').getAttribute('content')) ?? '';
}

/**
 * `page`'s signed-in API call.
 * @param {import('playwright-core').Page} page
 * @param {'GET' | 'POST' | 'PUT' | 'DELETE'} method
 * @param {string} href
 * @param {any} [data]
 */
async function api(page, method, href, data) {
  const res = await page.request.fetch(href, { method, data, headers: { 'X-CSRF-Token': await csrf(page) } });
  const text = await res.text();
  assert.ok(res.ok(), `${method} ${href}: ${res.status()} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Two won applications of 2027Summer and the clock in its first payment window: the demo
 * exhibitor's (page `ja`, signed in) and the demo friend's new circle (page `en`, signed in).
 * @param {Awaited<ReturnType<typeof privateServer>>} server
 * @param {{ja: import('playwright-core').Page, en: import('playwright-core').Page, staff: import('playwright-core').Page}} pages
 */
export async function wonApplications(server, pages) {
  const { url } = server;
  await pages.ja.goto(url('/mypage'));
  await signIn(pages.ja, EXHIBITOR, (p) => p === '/mypage');
  await pages.en.goto(url('/en/mypage/circle/new'));
  await signIn(pages.en, FRIEND, (p) => p === '/en/mypage/circle/new');
  // The form as loaded after the sign-in's redirects: a value typed while the page was still
  // loading was once lost, and the form came back empty instead of created (CI, 2026-11-27).
  await pages.en.waitForLoadState('load');
  const name = `Night Owls ${Date.now().toString(36)}`;
  const nameField = pages.en.getByTestId('circle-form').locator('#name_en');
  await nameField.fill(name);
  assert.equal(await nameField.inputValue(), name, 'the circle name is in the form');
  await Promise.all([pages.en.waitForURL((u) => u.search.includes('done=created')), pages.en.getByTestId('submit').click()]);

  const list = await (await fetch(url('/api/v1/events?limit=100'))).json();
  const id = list.data.find((/** @type {any} */ e) => e.permalink === EVENT)?.id;
  const ev = await (await fetch(url(`/api/v1/events/${id}`))).json();
  assert.equal(ev.permalink, EVENT);
  /** @param {string} kind */
  const phase = (kind) => Date.parse(ev.event_phases.find((/** @type {any} */ p) => p.phase_type === kind).phase_timestamp);
  /** @type {Record<string, number>} */
  const applications = {};
  for (const [lang, circleName] of /** @type {const} */ ([['ja', 'ともしび工房'], ['en', name]])) {
    const page = pages[lang];
    const circles = await api(page, 'GET', url('/api/v1/user/circles?limit=100'));
    const circle = circles.data.find((/** @type {any} */ c) => c.name_ja === circleName || c.name_en === circleName);
    assert.ok(circle, `${circleName} is one of the owner's circles`);
    const plans = await api(page, 'GET', url(`/api/v1/user/${EVENT}/event_plans`));
    const list = plans.event_plans;
    const plan = list.find((/** @type {any} */ p) => p.name_ja === PLAN);
    assert.ok(plan, 'the demo plan');
    const entry = await api(page, 'POST', url('/api/v1/user/event_entries'), {
      event_id: ev.id,
      circle_id: circle.id,
      is_multiple_win: false,
      applications: [{ choice: 1, plan_id: plan.id }],
      // The owner agrees to the event's terms, as the entry form requires (their version).
      agreed_terms: ev.terms_digest,
    });
    applications[lang] = entry.applications[0].id;
  }

  // Staff: the first draw (its window, then the command line), then into the payment window.
  await pages.staff.goto(url('/admin'));
  await signIn(pages.staff, server.staff, (p) => p === '/admin');
  await travel(pages.staff, new Date(phase('first_lottery_start') + 3_600_000).toISOString(), server.url);
  for (const action of ['commit', 'preview', 'publish']) {
    execFileSync(VMARKET_BIN, ['lottery', action, '--event', EVENT, '--round', 'first'], { env: server.env, stdio: 'ignore' });
  }
  await travel(pages.staff, new Date(phase('first_payment_start') + 3_600_000).toISOString(), server.url);
  return /** @type {{ja: number, en: number}} */ (applications);
}

/**
 * Sends the form `/payment/confirm` renders for a redirect provider from the signed-in page
 * (see the module docs) and waits until the browser is on the provider's page.
 * @param {import('playwright-core').Page} page
 * @param {string} prefix '' or '/en'
 * @param {number} applicationId
 * @param {'paypal' | 'smbc_gmo'} paymentType
 */
export async function sendToProvider(page, prefix, applicationId, paymentType) {
  const token = await csrf(page);
  const origin = new URL(page.url()).origin;
  await Promise.all([
    page.waitForURL((u) => u.origin !== origin, { timeout: 20_000 }),
    page.evaluate(
      ([action, fields]) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = action;
        for (const [name, value] of Object.entries(fields)) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      /** @type {const} */ ([
        `${prefix}/payment/redirect`,
        { application_id: String(applicationId), payment_type: paymentType, csrf_token: token },
      ]),
    ),
  ]);
}

/**
 * Screenshots at desktop and phone width (nothing overflows the phone), and an axe audit
 * (WCAG A/AA, serious and critical violations fail) of the open page.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function photographAndAudit(page, name) {
  await screenshot(page, `${name}-desktop.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `${page.url()} overflows the phone screen by ${overflow}px`);
  await screenshot(page, `${name}-phone.png`);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    // @ts-expect-error axe is the global the injected script defines.
    if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE_SOURCE });
    const blocking = await page.evaluate(async () => {
      // @ts-expect-error axe is the global the injected script defines.
      const result = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
        resultTypes: ['violations'],
      });
      return result.violations
        .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
        .map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(blocking, [], `${page.url()} at ${width}px: serious or critical accessibility violations`);
  }
}
