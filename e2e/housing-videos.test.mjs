/**
 * Housing videos in a real browser (issue 31): the demo exhibitor converts the short video they
 * uploaded, watches the status move from converting to ready, plays the converted MP4 (Chromium
 * decodes it: H.264 at 640 × 360), reads the page in English on a phone, and discards it.
 */
// e2e-schedule: private — converts and discards the demo exhibitor's video, which the audit shows
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TIMEOUT_MS, TIME_FACTOR, launchBrowser, newPage, screenshot, signIn, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const EXHIBITOR = { email: 'exhibitor@demo.vmarket.test', password: 'vmarket-demo-2026' };

test('a video converts, plays, reads in English on a phone and is discarded', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    await page.goto(url('/mypage/housing-videos'));
    await signIn(page, EXHIBITOR, (p) => p === '/mypage/housing-videos');
    assert.equal(await page.locator('h1').innerText(), 'ハウジング動画');
    const row = page.getByTestId('convertible-row').filter({ hasText: '灯りのループ映像' });
    assert.equal(await row.count(), 1, "the demo's uploaded video is offered for conversion");
    await Promise.all([
      page.waitForURL((u) => u.search.includes('done=converting')),
      row.getByTestId('video-convert').click(),
    ]);
    assert.match(await page.getByTestId('video-notice').innerText(), /変換を始めました/);

    // The job converts it; the page tells where it stands each time it is opened.
    const status = page.getByTestId('video-status').first();
    const until = Date.now() + 60_000 * TIME_FACTOR;
    while ((await status.innerText()) !== '変換完了') {
      assert.equal(await status.innerText(), '変換中', 'converting until it is ready');
      assert.ok(Date.now() < until, 'converted within a minute');
      await page.waitForTimeout(500);
      await page.reload();
    }
    assert.equal(await page.getByTestId('convertible-row').count(), 0, 'a converted upload is not offered again');
    assert.equal(await page.locator('[data-testid=video-row] .asset-card__name').first().innerText(), '灯りのループ映像');

    // The converted MP4 plays: its first frame is decoded at the converted size.
    const player = page.getByTestId('video-player').first();
    const size = await player.evaluate(async (video) => {
      const v = /** @type {HTMLVideoElement} */ (video);
      v.muted = true;
      await v.play();
      if (v.readyState < 2) await new Promise((done) => v.addEventListener('loadeddata', done, { once: true }));
      v.pause();
      return { width: v.videoWidth, height: v.videoHeight, duration: Math.round(v.duration) };
    });
    assert.deepEqual(size, { width: 640, height: 360, duration: 4 });
    await screenshot(page, 'housing-videos-ja.png');

    // English, at phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url('/en/mypage/housing-videos'));
    assert.equal(await page.locator('h1').innerText(), 'Housing videos');
    assert.equal(await page.getByTestId('video-status').first().innerText(), 'Ready');
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(wider, 0, 'no sideways scrolling at 390 px');
    await screenshot(page, 'housing-videos-en-390.png');

    await Promise.all([
      page.waitForURL((u) => u.search.includes('done=discarded')),
      page.getByTestId('video-discard').first().click(),
    ]);
    assert.equal(await page.getByTestId('video-notice').innerText(), 'The video was discarded.');
    assert.equal(await page.getByTestId('video-status').first().innerText(), 'Discarded');
    assert.equal(await page.getByTestId('video-player').count(), 0, 'a discarded video is not offered to play');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
