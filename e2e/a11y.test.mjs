/**
 * Accessibility audit: axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA rules) over every page in
 * `e2e/a11y-routes.json` — public pages as a visitor, mypage as the demo exhibitor, the console
 * as the demo admin — in Japanese and English, at 1280 px and 390 px. Fails on any violation of
 * impact serious or critical, and at 390 px on a page whose title (`h1`) starts below 300 px or
 * that is wider than the screen (issue 26: a phone's first screen shows what the page is); writes every finding (minor and moderate ones included) to
 * SCREENSHOT_DIR/a11y/REPORT.md and a full-page screenshot of each page with a finding beside it
 * (of every page with VMARKET_E2E_A11Y_SCREENSHOTS=all).
 *
 * The page list is kept in sync with the mounted routes by tests/it/a11y_routes.rs.
 *
 * The console (an entry with `"console": true`) is audited by **view shape**, not by record:
 * its pages are built from one description per resource (admin-ui/src/common/spec.ts and the
 * resource folders), so every record of a resource renders the same components with other
 * values. From the demo admin's own session (`/admin/api/session`: every resource and what the
 * role may do there) it audits, per resource, the list, the show page and the edit form of its
 * first record, and the create form — each that the role may use — plus the dashboard and every
 * other page the menu links to (time travel); every menu link must be one of these views, so a
 * page added to the console is audited as soon as it is in the menu. A resource without any
 * record has no show or edit view to audit: the report names it. Crawling every link instead
 * audited every record of the demo (64 pages, 528 views) and ran past the time limit while
 * checking the same components again and again.
 *
 * Console views run concurrently like the others: react-admin keeps its language in
 * localStorage, so each language has its own signed-in browser context (set before any page of
 * it loads) instead of one context whose tabs take turns.
 */
// e2e-schedule: private alone — the longest file: a demo server of its own (it posts an inquiry and a hub event), and both cores for its pages (scripts/e2e)
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SCREENSHOT_DIR, TIME_FACTOR, launchBrowser, signIn, travel, url } from './support.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ROUTES = JSON.parse(readFileSync(new URL('./a11y-routes.json', import.meta.url), 'utf8'));
const OUT_DIR = join(SCREENSHOT_DIR, 'a11y');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);
/** Also run, for the report only: axe's best practices (landmarks, heading order, …). */
const ADVISORY = ['best-practice'];
const LANGS = /** @type {const} */ (['ja', 'en']);
const WIDTHS = [1280, 390];
/** The phone width, where the first screen must show the page's title (see phoneLayout). */
const PHONE = 390;
const H1_MAX_TOP = 300;
/**
 * The whole audit's time limit: about 2.5 times what it takes on a reference host (570-650 s
 * alone, 2026-11-28), times the host's factor (e2e/support.mjs TIME_FACTOR). Each page has its
 * own waits (30 s at most), so a hang is found page by page; this bounds the sum.
 */
const A11Y_TIMEOUT_MS = 1_500_000 * TIME_FACTOR;
/** Pages audited at once (each has its own tab; contexts are shared per account). */
const CONCURRENCY = Number(process.env.VMARKET_E2E_A11Y_CONCURRENCY || 3);
/** Only routes matching this regular expression (for working on a few pages); all by default. */
const ONLY = new RegExp(process.env.VMARKET_E2E_A11Y_ONLY || '');
/** Time spent per step, summed over all page views (printed at the end). */
const TIMINGS = { open: 0, axe: 0, screenshot: 0 };
/** Screenshot every audited view, not only those with a finding. */
const ALL_SCREENSHOTS = process.env.VMARKET_E2E_A11Y_SCREENSHOTS === 'all';

const DEMO_PASSWORD = 'vmarket-demo-2026';
const ACCOUNTS = {
  user: { email: 'exhibitor@demo.vmarket.test', password: DEMO_PASSWORD, home: '/mypage' },
  staff: { email: 'admin@demo.vmarket.test', password: DEMO_PASSWORD, home: '/admin' },
};

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
});
after(async () => {
  await browser?.close();
});

/** `/en` + path for English (`/` → `/en`). @param {string} path @param {'ja' | 'en'} lang */
function localized(path, lang) {
  if (lang === 'ja') return path;
  return path === '/' ? '/en' : `/en${path}`;
}

/** A file-name-safe slug of a path. @param {string} path */
function slug(path) {
  return (
    path
      .replace(/^\/+/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/_+$/, '')
      .slice(0, 80) || 'top'
  );
}

/**
 * The signed-in (or anonymous) browser contexts, one per account — and, for the console, per
 * language — created on first use.
 * @type {Map<string, Promise<import('playwright-core').BrowserContext>>}
 */
const contexts = new Map();

/**
 * @param {'guest' | 'user' | 'staff'} as
 * @param {'ja' | 'en' | null} [consoleLang] the console's language in this context (react-admin
 *   reads it from localStorage, which every tab of a context shares)
 */
function contextFor(as, consoleLang = null) {
  const key = consoleLang ? `${as}@${consoleLang}` : as;
  let ctx = contexts.get(key);
  if (!ctx) {
    ctx = (async () => {
      assert.ok(browser);
      // The audit injects axe.min.js as an inline script, which the site's CSP (rightly) forbids.
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        timezoneId: 'Asia/Tokyo',
        bypassCSP: true,
      });
      if (consoleLang) {
        // What the console's language menu writes (react-admin's store), before any page loads.
        await context.addInitScript((lang) => localStorage.setItem('RaStore.locale', JSON.stringify(lang)), consoleLang);
      }
      if (as !== 'guest') {
        const account = ACCOUNTS[as];
        const page = await context.newPage();
        await page.goto(url(account.home));
        await signIn(page, account, (p) => p === account.home);
        await page.close();
      }
      return context;
    })();
    contexts.set(key, ctx);
  }
  return ctx;
}

/** Results of `follow` and `setup` steps, so both widths audit the same page. */
const resolved = new Map();
/** @param {string} key @param {() => Promise<string>} make */
function once(key, make) {
  if (!resolved.has(key)) resolved.set(key, make());
  return resolved.get(key);
}

/**
 * The path of the first link matching `link` on `from` (in that language).
 * @param {import('playwright-core').Page} page
 * @param {string} from
 * @param {string} link
 * @param {'ja' | 'en'} lang
 */
async function follow(page, from, link, lang) {
  await page.goto(url(localized(from, lang)));
  const href = await page.locator(link).first().getAttribute('href', { timeout: 5000 });
  assert.ok(href, `no link ${link} on ${from}`);
  const target = new URL(href, url('/'));
  return target.pathname + target.search;
}

/** Named steps that produce a page no fixed demo path reaches. */
const SETUPS = {
  /**
   * Sends an inquiry through the contact form; the page it lands on.
   * @param {import('playwright-core').Page} page
   * @param {'ja' | 'en'} lang
   */
  async inquiry(page, lang) {
    await page.goto(url(localized('/contact/form', lang)));
    await page.locator('#inquiry_category_id').selectOption({ index: 1 });
    await page.locator('#email').fill('a11y-audit@example.com');
    await page.locator('#message').fill(lang === 'ja' ? 'アクセシビリティ監査のテストです。' : 'An accessibility audit test.');
    await page.locator('input[name="agreement"]').check();
    await Promise.all([
      page.waitForURL((u) => u.pathname.includes('/contact/form/sent/')),
      page.locator('.contact-form button[type="submit"]').click(),
    ]);
    const u = new URL(page.url());
    return u.pathname + u.search;
  },
  /**
   * The edit page of one of the signed-in user's events, posting one when there is none.
   * @param {import('playwright-core').Page} page
   * @param {'ja' | 'en'} lang
   */
  async 'user-event'(page, lang) {
    const base = '/mypage/event/2026Winter/my_notification';
    return once('user-event', async () => {
      await page.goto(url(base));
      if ((await page.locator("a[href$='/edit']").count()) === 0) {
        await page.goto(url(`${base}/new`));
        const form = page.getByTestId('event-form');
        await form.locator('#title').fill('アクセシビリティ確認会');
        await form.locator('#content').fill('画面読み上げとキーボードで会場を巡ります。');
        await form.locator('#start_at').fill('2030-12-20T21:00');
        await Promise.all([
          page.waitForURL((u) => u.search.includes('done=created')),
          page.getByTestId('submit').click(),
        ]);
      }
      return follow(page, base, "a[href$='/edit']", 'ja');
    }).then((/** @type {string} */ path) => localized(path.replace(/^\/en(?=\/)/, ''), lang));
  },
  /**
   * The card checkout of the demo avatar (the demo exhibitor sells it; staff's demo account
   * buys): the item page's button opens the order and lands on its page.
   * @param {import('playwright-core').Page} page
   * @param {'ja' | 'en'} lang
   */
  async 'store-order'(page, lang) {
    return once('store-order', async () => {
      const res = await page.request.get(url('/api/v1/store/items?category=avatar'));
      const uuid = (await res.json()).data[0].uuid;
      await page.goto(url(`/store/items/${uuid}`));
      await Promise.all([
        page.waitForURL((u) => u.pathname.startsWith('/store/orders/')),
        page.getByTestId('store-checkout').click(),
      ]);
      return new URL(page.url()).pathname;
    }).then((/** @type {string} */ path) => localized(path, lang));
  },
  /**
   * The AMP options page of the signed-in user's own entry to 2026Winter (its circle's id
   * depends on the seed; the page is there whether or not the submission period is still open).
   * @param {import('playwright-core').Page} page
   * @param {'ja' | 'en'} lang
   */
  async 'amp-options'(page, lang) {
    return once('amp-options', async () => {
      const res = await page.request.get(url('/api/v1/user/event_entries?permalink=2026Winter'));
      assert.equal(res.status(), 200, 'the entries of the demo exhibitor');
      const body = await res.json();
      const mine = body.data.find(
        (/** @type {any} */ e) => e.standing === 'owner' && !e.circle.is_suspended,
      );
      assert.ok(mine, 'the demo exhibitor owns an entry to 2026Winter');
      return `/mypage/event/2026Winter/apply/amp?circle=${mine.circle.id}`;
    }).then((/** @type {string} */ path) => localized(path, lang));
  },
};

/**
 * @typedef {{ as: 'guest' | 'user' | 'staff', route: string, lang: 'ja' | 'en', width: number,
 *   order: number, status: number, console: boolean, exclude: string[], at: string | null,
 *   target: (page: import('playwright-core').Page) => Promise<string> }} Job
 * @typedef {{ id: string, impact: string, help: string, helpUrl: string, wcag: boolean, nodes: { target: string[], html: string }[] }} Violation
 * @typedef {{ job: Job, path: string, violations: Violation[], screenshot: string, focus: string[], phone: string[] }} Audit
 */

/** Every page × language of the list (the worker audits each at every width). @returns {Job[]} */
function jobs() {
  /** @type {Job[]} */
  const list = [];
  let order = 0;
  for (const entry of ROUTES.pages.filter((/** @type {{ route: string, console?: boolean }} */ e) => !e.console && ONLY.test(e.route))) {
    /** @type {Array<(page: any, lang: 'ja' | 'en') => Promise<string>>} */
    const targets = [];
    for (const [i, path] of (entry.paths ?? []).entries()) {
      // The console is one address in both languages (its language is a setting, see audit()).
      targets.push(async (_page, lang) =>
        lang === 'en' && entry.en ? entry.en[i] : entry.console ? path : localized(path, lang),
      );
    }
    for (const [i, f] of (entry.follow ?? []).entries()) {
      targets.push((page, lang) => once(`${entry.route}#${i}@${lang}`, () => follow(page, f.from, f.link, lang)));
    }
    if (entry.setup) {
      const setup = SETUPS[/** @type {keyof typeof SETUPS} */ (entry.setup)];
      assert.ok(setup, `unknown setup ${entry.setup}`);
      targets.push((page, lang) => once(`${entry.setup}@${lang}`, () => setup(page, lang)));
    }
    for (const target of targets) {
      order += 1;
      for (const lang of LANGS) {
        list.push({
          as: entry.as ?? 'guest',
          route: entry.route,
          lang,
          width: WIDTHS[0],
          order,
          status: entry.status ?? 200,
          console: Boolean(entry.console),
          exclude: entry.exclude ?? [],
          at: entry.at ?? null,
          target: (page) => target(page, lang),
        });
      }
    }
  }
  return list;
}

/**
 * Opens the job's page (or, with `resized`, keeps the page already open and only changes the
 * viewport width: CSS and islands follow the width, and a second load would cost more than the
 * audit) and runs axe on it.
 * @param {import('playwright-core').Page} page
 * @param {Job} job
 * @param {boolean} resized
 * @returns {Promise<Audit>}
 */
async function audit(page, job, resized) {
  let t = Date.now();
  await page.setViewportSize({ width: job.width, height: job.width < 600 ? 844 : 800 });
  if (resized) {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    return axeAndScreenshot(page, job, new URL(page.url()), t);
  }
  const path = await job.target(page);
  if (job.console && isResourceView(path) && new URL(page.url()).pathname.startsWith('/admin/')) {
    // The tab already runs the console: go there as its menu would, without loading the
    // console's scripts again (a new load is most of a console view's cost). The address must
    // still answer as it would to a load.
    const res = await page.request.get(url(path));
    assert.equal(res.status(), job.status, `${path}: HTTP status`);
    await openInConsole(page, path);
  } else {
    const res = await page.goto(url(path), { waitUntil: 'load' });
    assert.equal(res?.status(), job.status, `${path}: HTTP status`);
  }
  if (job.console) {
    await page.locator('#main-content').first().waitFor({ state: 'visible', timeout: 30_000 });
    await networkQuiet(page);
    await page
      .waitForFunction((lang) => document.documentElement.lang === lang, job.lang, { timeout: 5000 })
      .catch(() => {});
    // Let transitions end (a banner fading in while another story has the site travelled was
    // once audited half-transparent, as a contrast failure).
    await page
      .evaluate(() => {
        const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
        const ended = Promise.all(ending.map((a) => a.finished.catch(() => {})));
        return Promise.race([ended, new Promise((done) => setTimeout(done, 3000))]);
      })
      .catch(() => {});
  } else if ((await page.locator('[data-island]').count()) > 0) {
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
  }
  assert.equal(await page.locator('html').getAttribute('lang'), job.lang, `${path}: <html lang>`);
  return axeAndScreenshot(page, job, new URL(page.url()), t);
}

/** The elements react-admin renders a view's content in (list, show, edit, create, not found). */
const CONSOLE_VIEW = ['.RaList-main', '.RaShow-main', '.RaEdit-main', '.RaCreate-main', '.RaNotFound-message'].join(', ');

/**
 * Whether a console address is one of a resource's views (`/admin/<resource>` and below), which
 * the console's router can open in a tab already running it; the dashboard and the console's own
 * pages are opened by a load.
 * @param {string} path
 */
function isResourceView(path) {
  const resource = path.split('?')[0].split('/')[2] ?? '';
  return resource !== '' && resource !== 'time_travel';
}

/**
 * Moves the console open in `page` to `path` through its router (what following a menu link
 * does) and waits until the view that was there is gone (it is marked, so it cannot pass for the
 * new one), the new one is drawn and its data loaded (see {@link networkQuiet}, which then waits
 * 500 ms at least). When the view that was there stays, the address is loaded instead.
 * @param {import('playwright-core').Page} page
 * @param {string} path
 */
async function openInConsole(page, path) {
  const t = traffic.get(page);
  assert.ok(t, 'every audited tab counts its requests (trackTraffic)');
  t.last = Date.now();
  await page.evaluate(
    async ([to, views]) => {
      for (const el of Array.from(document.querySelectorAll(views))) el.setAttribute('data-a11y-left', '');
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate', { state: null }));
      // React commits the route change in a task of its own; let it, and the frame after it.
      await new Promise((done) => setTimeout(done, 0));
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    },
    [path, CONSOLE_VIEW],
  );
  const moved = await page
    .waitForFunction(() => !document.querySelector('[data-a11y-left]'), null, { timeout: 5000 * TIME_FACTOR })
    .then(() => true, () => false);
  if (!moved) {
    // The view that was there stays (an address a resource has no view for shows its list,
    // the same component): open the address by a load instead, as before.
    await page.goto(url(path), { waitUntil: 'load' });
    return;
  }
  await page
    .waitForFunction(() => !document.querySelector('.RaLoadingIndicator-loader'), null, { timeout: 10_000 })
    .catch(() => {});
}

/** Requests in flight per tab (see {@link networkQuiet}). @type {WeakMap<import('playwright-core').Page, { open: number, last: number }>} */
const traffic = new WeakMap();

/** Counts the tab's requests from now on. @param {import('playwright-core').Page} page */
function trackTraffic(page) {
  const t = { open: 0, last: Date.now() };
  traffic.set(page, t);
  page.on('request', () => {
    t.open += 1;
    t.last = Date.now();
  });
  const done = () => {
    t.open = Math.max(0, t.open - 1);
    t.last = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Waits until the tab has had no request in flight for 500 ms (10 s at most) — Playwright's
 * `networkidle`, which only waits after a load, also after a move inside the console.
 * @param {import('playwright-core').Page} page
 */
async function networkQuiet(page) {
  const t = traffic.get(page);
  assert.ok(t, 'every audited tab counts its requests (trackTraffic)');
  const until = Date.now() + 10_000;
  while (Date.now() < until && (t.open > 0 || Date.now() - t.last < 500)) {
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Runs axe on the open page and saves its screenshot.
 * @param {import('playwright-core').Page} page
 * @param {Job} job
 * @param {URL} landed
 * @param {number} t when opening the page started
 * @returns {Promise<Audit>}
 */
async function axeAndScreenshot(page, job, landed, t) {
  const path = landed.pathname + landed.search;
  TIMINGS.open += Date.now() - t;
  t = Date.now();
  // @ts-expect-error axe is the global the injected script defines.
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE_SOURCE });
  /** @type {Violation[]} */
  const violations = await page.evaluate(async ([tags, advisory, exclude]) => {
    // Parts drawn by a third party's script (`exclude`, e.g. Stripe's card fields) are not ours.
    const context = exclude.length > 0 ? { exclude: exclude.map((/** @type {string} */ s) => [s]) } : document;
    // @ts-expect-error axe is the global the injected script defines.
    const result = await window.axe.run(context, {
      runOnly: { type: 'tag', values: [...tags, ...advisory] },
      resultTypes: ['violations'],
      // No re-fetching of stylesheets (only css-orientation-lock reads them; the site locks nothing).
      preload: false,
    });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      wcag: v.tags.some((/** @type {string} */ t) => tags.includes(t)),
      nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target.map(String), html: n.html.slice(0, 200) })),
    }));
  }, [TAGS, ADVISORY, job.exclude]);
  // Focus visible (WCAG 2.4.7) on every control of the site's own pages, which axe does not
  // check: each one is focused in turn and must show a ring (an outline of 2px or more, or a
  // box shadow). Once per page; the console keeps MUI's own focus styles.
  const focus = job.width === WIDTHS[0] && !job.console ? await focusWithoutRing(page, job.exclude) : [];
  const phone = job.width === PHONE ? await phoneLayout(page) : [];
  TIMINGS.axe += Date.now() - t;
  t = Date.now();
  // A full-page screenshot costs about as much as the audit itself: by default only pages with a
  // finding get one (what a reviewer opens); VMARKET_E2E_A11Y_SCREENSHOTS=all shoots every view.
  let file = '';
  if (ALL_SCREENSHOTS || violations.length > 0 || focus.length > 0 || phone.length > 0) {
    file = `${String(job.order).padStart(3, '0')}-${slug(path.replace(/^\/en(?=\/|$)/, '') || '/')}.${job.lang}.${job.width}.jpg`;
    // JPEG: encodes several times faster than PNG for tall pages, and is plenty for review.
    await page.screenshot({ path: join(OUT_DIR, file), fullPage: true, type: 'jpeg', quality: 70, animations: 'disabled' });
  }
  TIMINGS.screenshot += Date.now() - t;
  return { job, path, violations, screenshot: file, focus, phone };
}

/**
 * What a phone's first screen lacks (issue 26): the page's title (`h1`) must start above
 * {@link H1_MAX_TOP} px, and nothing may be wider than the screen (the page scrolls sideways).
 * The console's title is in its app bar, not an `h1`: only the overflow is checked there.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
function phoneLayout(page) {
  return page.evaluate((maxTop) => {
    /** @type {string[]} */
    const problems = [];
    window.scrollTo(0, 0);
    const h1 = document.querySelector('h1');
    const isConsole = Boolean(document.querySelector('#main-content'));
    if (!isConsole && !h1) problems.push('no h1');
    if (h1) {
      const top = Math.round(h1.getBoundingClientRect().top + window.scrollY);
      if (top > maxTop) problems.push(`the h1 starts ${top} px down (at most ${maxTop})`);
    }
    const wide = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    if (wide > 0) {
      const culprits = Array.from(document.querySelectorAll('body *'))
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 3)
        .map((el) => el.outerHTML.slice(0, el.outerHTML.indexOf('>') + 1).slice(0, 120));
      problems.push(`the page is ${wide} px wider than the screen: ${culprits.join(' ')}`);
    }
    return problems;
  }, H1_MAX_TOP);
}

/**
 * The controls of the page that show no focus ring when focused (as their opening tags), but
 * those inside `exclude` (a third party's own fields).
 * @param {import('playwright-core').Page} page
 * @param {string[]} exclude
 * @returns {Promise<string[]>}
 */
function focusWithoutRing(page, exclude) {
  return page.evaluate((excluded) => {
    const controls = document.querySelectorAll(
      'a[href], button:not([disabled]), input:not([type="hidden"]):not([disabled]), select:not([disabled]), ' +
        'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])',
    );
    /** @type {string[]} */
    const missing = [];
    for (const el of Array.from(controls)) {
      if (!(el instanceof HTMLElement) || el.getClientRects().length === 0) continue;
      if (excluded.some((/** @type {string} */ s) => el.closest(s))) continue;
      el.focus({ preventScroll: true });
      if (document.activeElement !== el) continue;
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
      if (!ring) missing.push(el.outerHTML.slice(0, el.outerHTML.indexOf('>') + 1).slice(0, 160));
    }
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    window.scrollTo(0, 0);
    return missing;
  }, exclude);
}

/**
 * @typedef {{ route: string, path: string }} ConsoleView
 */

/**
 * The console's view shapes for the demo admin (see the module comment): the dashboard; per
 * resource of the session, in menu order, the list, the first record's show and edit pages and
 * the create form, each the role may use; every other page the menu links to. Also the
 * resources that have no record (no show or edit view).
 * @returns {Promise<{ views: ConsoleView[], empty: string[] }>}
 */
async function consoleViews() {
  const context = await contextFor('staff', 'ja');
  const api = context.request;
  const session = await (await api.get(url('/admin/api/session'))).json();
  /** @type {Record<string, string[]>} */
  const permissions = session.permissions;
  const page = await context.newPage();
  await page.goto(url('/admin'));
  const menu = page.locator('.RaMenu-open a[href^="/admin"], .RaMenu-closed a[href^="/admin"]');
  await menu.first().waitFor({ timeout: 30_000 });
  const links = [...new Set(await menu.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '')))];
  await page.close();
  /** @type {ConsoleView[]} */
  const views = [{ route: '/admin', path: '/admin' }];
  /** @type {string[]} */
  const empty = [];
  const add = (/** @type {ConsoleView} */ view) => {
    if (!views.some((v) => v.path === view.path)) views.push(view);
  };
  const names = [
    ...links.map((href) => href.replace(/^\/admin\/?/, '')).filter((name) => permissions[name]),
    ...Object.keys(permissions).filter((name) => !links.includes(`/admin/${name}`)),
  ];
  for (const name of names) {
    const can = permissions[name] ?? [];
    if (name === 'time_travel') continue;
    if (can.includes('list')) add({ route: `/admin/${name}`, path: `/admin/${name}` });
    if (can.includes('show') || can.includes('edit')) {
      const res = await api.get(url(`/admin/api/${name}?range=${encodeURIComponent('[0,0]')}`));
      assert.equal(res.status(), 200, `/admin/api/${name}: HTTP status`);
      const [first] = await res.json();
      if (first === undefined) empty.push(name);
      else {
        if (can.includes('show')) add({ route: `/admin/${name}/<id>/show`, path: `/admin/${name}/${first.id}/show` });
        if (can.includes('edit')) add({ route: `/admin/${name}/<id>`, path: `/admin/${name}/${first.id}` });
      }
    }
    if (can.includes('create')) add({ route: `/admin/${name}/create`, path: `/admin/${name}/create` });
  }
  // Every page the menu links to (the time-travel page, any page added later).
  for (const href of links) add({ route: href, path: href });
  return { views, empty };
}

/** @param {Audit[]} audits @param {string[]} failures @param {string[]} consoleEmpty */
function report(audits, failures, consoleEmpty) {
  const lines = [
    '# Accessibility audit',
    '',
    `axe-core ${JSON.parse(readFileSync(require.resolve('axe-core/package.json'), 'utf8')).version}, tags ${TAGS.join(', ')} ` +
      `(serious/critical fail the test) and ${ADVISORY.join(', ')} (reported only); ` +
      `${audits.length} page views (${new Set(audits.map((a) => a.job.order)).size} pages × ja/en × ${WIDTHS.join('/')} px).`,
    '',
  ];
  if (consoleEmpty.length) {
    lines.push(`Console resources without a record in the demo (list and create audited, no show or edit view): ${consoleEmpty.join(', ')}.`, '');
  }
  if (failures.length) lines.push('## Failures', '', ...failures.map((f) => `- ${f}`), '');
  /** @type {Map<string, { impact: string, help: string, wcag: boolean, views: number, nodes: number }>} */
  const byRule = new Map();
  for (const a of audits) {
    for (const v of a.violations) {
      const r = byRule.get(v.id) ?? { impact: v.impact, help: v.help, wcag: v.wcag, views: 0, nodes: 0 };
      r.views += 1;
      r.nodes += v.nodes.length;
      byRule.set(v.id, r);
    }
  }
  lines.push('## Findings by rule', '');
  if (byRule.size === 0) lines.push('None.', '');
  else {
    lines.push('| rule | kind | impact | page views | elements | what |', '|---|---|---|---|---|---|');
    for (const [id, r] of [...byRule].sort()) {
      lines.push(`| ${id} | ${r.wcag ? 'WCAG' : 'best practice'} | ${r.impact} | ${r.views} | ${r.nodes} | ${r.help} |`);
    }
    lines.push('');
  }
  lines.push('## Pages', '');
  for (const a of audits) {
    const shot = a.screenshot ? ` — [screenshot](${a.screenshot})` : '';
    const head = `- \`${a.path}\` (${a.job.lang}, ${a.job.width} px, ${a.job.as})${shot}`;
    if (a.violations.length === 0) {
      lines.push(`${head}: no findings`);
      continue;
    }
    lines.push(`${head}:`);
    for (const v of a.violations) {
      const targets = v.nodes.slice(0, 3).map((n) => `\`${n.target.join(' ')}\``).join(', ');
      lines.push(`  - **${v.id}** (${v.wcag ? '' : 'best practice, '}${v.impact}, ${v.nodes.length}): ${v.help} — ${targets}`);
      // The elements themselves: a class name alone (a console's generated one) says little.
      for (const n of v.nodes.slice(0, 3)) lines.push(`    - \`${n.html.replace(/\s+/g, ' ').slice(0, 240)}\``);
    }
  }
  writeFileSync(join(OUT_DIR, 'REPORT.md'), `${lines.join('\n')}\n`);
}

test('axe: no serious or critical violation on any page, ja and en, 1280 and 390 px; at 390 px the title in the first screen and no sideways scrolling', { timeout: A11Y_TIMEOUT_MS }, async () => {
  assert.ok(browser);
  const queue = jobs();
  if (!process.env.VMARKET_E2E_A11Y_ONLY) assert.ok(queue.length >= 2 * 40, `the route list yields the pages (${queue.length} jobs)`);
  /** @type {Audit[]} */
  const audits = [];
  /** @type {string[]} */
  const failures = [];
  /** @type {string[]} */
  let consoleEmpty = [];
  for (const entry of ROUTES.pages.filter((/** @type {{ console?: boolean }} */ e) => e.console)) {
    const { views, empty } = await consoleViews();
    consoleEmpty = empty;
    let order = Math.max(0, ...queue.map((j) => j.order));
    for (const view of views.filter((v) => ONLY.test(v.route))) {
      order += 1;
      for (const lang of LANGS) {
        queue.push({
          as: entry.as ?? 'staff',
          route: view.route,
          lang,
          width: WIDTHS[0],
          order,
          status: 200,
          console: true,
          exclude: [],
          at: null,
          target: async () => view.path,
        });
      }
    }
  }

  /**
   * Audits the job's page at every width, reporting what breaks.
   * @param {import('playwright-core').Page} page
   * @param {Job} base
   */
  async function widths(page, base) {
    for (const [i, width] of WIDTHS.entries()) {
      const job = { ...base, width };
      try {
        const result = await audit(page, job, i > 0);
        audits.push(result);
        for (const v of result.violations.filter((v) => v.wcag && BLOCKING.has(v.impact))) {
          const targets = v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ');
          const html = (v.nodes[0]?.html ?? '').replace(/\s+/g, ' ').slice(0, 160);
          failures.push(`${result.path} [${job.lang} ${job.width}px] ${v.id} (${v.impact}): ${v.help} — ${targets} — ${html}`);
        }
        if (result.phone.length > 0) {
          failures.push(`${result.path} [${job.lang} ${job.width}px] phone layout: ${result.phone.join('; ')}`);
        }
        if (result.focus.length > 0) {
          failures.push(`${result.path} [${job.lang}] focus not visible on ${result.focus.length}: ${result.focus.slice(0, 5).join(' | ')}`);
        }
      } catch (err) {
        const shot = `failed-${String(job.order).padStart(3, '0')}.${job.lang}.${job.width}.jpg`;
        await page.screenshot({ path: join(OUT_DIR, shot), type: 'jpeg', quality: 70 }).catch(() => {});
        const seen = (await page.locator('body').innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 120);
        failures.push(
          `${job.route} [${job.lang} ${job.width}px]: ${err instanceof Error ? err.message.split('\n')[0] : err} (page: ${page.url()}: ${JSON.stringify(seen)})`,
        );
        return;
      }
    }
  }

  /** Audits the jobs of `list` until it is empty (several workers share one list). @param {Job[]} list */
  async function worker(list) {
    /** @type {Map<string, import('playwright-core').Page>} */
    const pages = new Map();
    for (let job = list.shift(); job; job = list.shift()) {
      const key = job.console ? `${job.as}@${job.lang}` : job.as;
      let page = pages.get(key);
      if (!page) {
        page = await (await contextFor(job.as, job.console ? job.lang : null)).newPage();
        page.setDefaultTimeout(15_000);
        trackTraffic(page);
        pages.set(key, page);
      }
      await widths(page, job);
    }
    await Promise.all([...pages.values()].map((p) => p.close()));
  }

  const started = Date.now();
  const today = queue.filter((j) => !j.at);
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(today)));
  // Pages of a phase the demo calendar has left behind, audited with the clock moved there.
  for (const at of new Set(queue.map((j) => j.at).filter((a) => a !== null))) {
    const group = queue.filter((j) => j.at === at);
    const staff = await (await contextFor('staff', 'ja')).newPage();
    await travel(staff, at);
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(group)));
    } finally {
      await travel(staff, null);
      await staff.close();
    }
  }
  audits.sort((a, b) => a.job.order - b.job.order || LANGS.indexOf(a.job.lang) - LANGS.indexOf(b.job.lang) || b.job.width - a.job.width);
  report(audits, failures, consoleEmpty);
  console.log(`a11y: ${audits.length} page views in ${((Date.now() - started) / 1000).toFixed(0)} s (summed: ${Object.entries(TIMINGS).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)} s`).join(', ')}); report ${join(OUT_DIR, 'REPORT.md')}`);
  await Promise.all([...contexts.values()].map(async (c) => (await c).close()));
  assert.deepEqual(failures, [], `serious/critical violations or broken pages (see ${join(OUT_DIR, 'REPORT.md')})`);
});
