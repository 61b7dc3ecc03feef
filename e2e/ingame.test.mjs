/**
 * The in-game sign-in with a real browser (issue 30): a script acting as the game client opens a
 * device grant and polls it the way RFC 8628 says (its interval, `slow_down`); a new user follows
 * the game's link, signs up, sees the code filled in and the asking client named, and allows it;
 * the game receives its token, reads who it is and the user's assets, and the token opens no site
 * API. A friend's game signs in the same way; the two follow each other, the friend's game reads
 * a chat channel as a live stream while the first game speaks on it, and sees the first player in
 * its portal list once their game says they can be joined. In English, at phone width, the user types a second game's code by hand and refuses it (the
 * game hears `access_denied`), then signs the first game out (its token stops working).
 */
// e2e-schedule: shared-read — a new account of its own; its games are its own (scripts/e2e)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { accountForm, launchBrowser, messages, newPage, screenshot, SUBMIT, TEST_TIMEOUT_MS, url } from './support.mjs';

/** @type {import('playwright-core').Browser | undefined} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const JA = messages('ja');
const EN = messages('en');

const STAMP = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
const ACCOUNT = {
  email: `e2e-game-${STAMP}@example.com`,
  password: `pw-${STAMP}-secret`,
  vmarket_id: `e2e_game_${STAMP}`,
  name_ja: 'ゲーム花子',
  name_en: 'Hanako Game',
};
const FRIEND = {
  email: `e2e-friend-${STAMP}@example.com`,
  password: `pw-${STAMP}-friend`,
  vmarket_id: `e2e_friend_${STAMP}`,
  name_ja: 'フレンド太郎',
  name_en: 'Taro Friend',
};

/**
 * A form post as the game client sends it; status and JSON body.
 * @param {string} path @param {Record<string, string>} fields
 */
async function postForm(path, fields) {
  const res = await fetch(url(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * A GET with a bearer token; status and JSON body.
 * @param {string} path @param {string} token
 */
async function getWith(path, token) {
  const res = await fetch(url(path), { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

/**
 * A call with a bearer token and an optional JSON body; status and JSON body (null when empty).
 * @param {string} method @param {string} path @param {string} token @param {unknown} [body]
 */
async function call(method, path, token, body) {
  const res = await fetch(url(path), {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * Opens a chat channel's event stream as a game client does; `next(match)` resolves with the
 * first `message` event whose data satisfies `match`.
 * @param {string} channel @param {string} token
 */
async function chatStream(channel, token) {
  const abort = new AbortController();
  const res = await fetch(url(`/ingame/chat/${channel}/stream`), {
    headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
    signal: abort.signal,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  assert.ok(res.body);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    /** @param {(data: any) => boolean} match */
    async next(match) {
      for (;;) {
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
          if (event === 'message' && data && match(JSON.parse(data))) return JSON.parse(data);
        }
        const { value, done } = await reader.read();
        assert.ok(!done, 'the stream stays open');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => abort.abort(),
  };
}

/**
 * A new user signs up through a game's link in `page` and allows that game; its token.
 * @param {import('playwright-core').Page} page @param {typeof ACCOUNT} account @param {string} client
 */
async function signUpAndAllow(page, account, client) {
  const grant = (await postForm('/ingame/auth/device', { client_id: client })).body;
  const polling = pollUntilDecided(grant);
  const link = new URL(grant.verification_uri_complete);
  await page.goto(url(`${link.pathname}${link.search}`));
  const signUp = await accountForm(page, 'sign-up');
  for (const [field, value] of Object.entries(account)) await signUp.locator(`input[name="${field}"]`).fill(value);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/mypage/ingame', { timeout: 20_000 }),
    signUp.locator(SUBMIT).first().click(),
  ]);
  await Promise.all([page.waitForURL((u) => u.pathname === '/mypage/ingame/check'), page.getByTestId('ingame-continue').click()]);
  await Promise.all([page.waitForURL((u) => u.searchParams.get('done') === 'allowed'), page.getByTestId('ingame-allow').click()]);
  const issued = await polling;
  assert.equal(issued.status, 200, JSON.stringify(issued.body));
  return issued.body.access_token;
}

/**
 * The game's polling loop: every `interval` seconds (longer after `slow_down`) until the grant
 * is decided; the final answer.
 * @param {any} grant
 */
async function pollUntilDecided(grant) {
  let interval = grant.interval;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, interval * 1000));
    const answer = await postForm('/ingame/auth/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: grant.device_code,
      client_id: 'e2e-game',
    });
    if (answer.status === 400 && answer.body.error === 'authorization_pending') continue;
    if (answer.status === 400 && answer.body.error === 'slow_down') {
      interval += 5;
      continue;
    }
    return answer;
  }
}

test('a game signs in through the device grant while its user confirms the code in the browser', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  assert.ok(browser);
  const { page, errors, close } = await newPage(browser);
  try {
    const opened = await postForm('/ingame/auth/device', { client_id: 'Vket Cloud (e2e)' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const grant = opened.body;
    const polling = pollUntilDecided(grant);

    // The game's link: signed out, it goes through sign-up and back with the code filled in.
    const link = new URL(grant.verification_uri_complete);
    await page.goto(url(`${link.pathname}${link.search}`));
    const signUp = await accountForm(page, 'sign-up');
    for (const [field, value] of Object.entries(ACCOUNT)) await signUp.locator(`input[name="${field}"]`).fill(value);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/mypage/ingame', { timeout: 20_000 }),
      signUp.locator(SUBMIT).first().click(),
    ]);
    assert.equal(await page.locator('h1').textContent(), JA.ingame.title);
    assert.equal(await page.locator('#code').inputValue(), grant.user_code);
    await Promise.all([page.waitForURL((u) => u.pathname === '/mypage/ingame/check'), page.getByTestId('ingame-continue').click()]);
    assert.equal(await page.locator('h1').textContent(), JA.ingame.confirm.heading);
    assert.match((await page.getByTestId('ingame-asking').textContent()) ?? '', /「Vket Cloud \(e2e\)」/);
    assert.equal(await page.getByTestId('ingame-code').textContent(), grant.user_code);
    await screenshot(page, 'ingame-confirm-ja.png');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('done') === 'allowed'), page.getByTestId('ingame-allow').click()]);
    assert.equal((await page.getByTestId('done').textContent())?.trim(), JA.ingame.done.allowed);

    const issued = await polling;
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const token = issued.body.access_token;
    const me = await getWith('/ingame/user?lang=en', token);
    assert.equal(me.body.name, ACCOUNT.name_en);
    const assets = await getWith('/ingame/user/assets?limit=30', token);
    assert.deepEqual([assets.status, assets.body.total], [200, 0]);
    assert.equal((await getWith('/api/v1/user/circles', token)).status, 401, 'an in-game token opens no site API');
    const pallet = await call('PUT', '/ingame/user/pallets?version=1', token, { pallets: [] });
    assert.deepEqual([pallet.status, pallet.body], [200, []], 'a pallet is set (the demo publishes no emotes)');

    // A friend's game: they follow each other, chat on a channel, and the friend can join.
    const friendPage = await newPage(browser);
    let friendToken;
    try {
      friendToken = await signUpAndAllow(friendPage.page, FRIEND, 'Friend game (e2e)');
    } finally {
      await friendPage.close();
    }
    const friend = (await getWith('/ingame/user', friendToken)).body;
    assert.equal((await call('POST', `/ingame/users/${friend.id}/follow`, token)).status, 204);
    assert.equal((await call('POST', `/ingame/users/${me.body.id}/follow`, friendToken)).status, 204);
    const channel = `e2e-${STAMP}`;
    const stream = await chatStream(channel, friendToken);
    try {
      const said = await call('POST', `/ingame/chat/${channel}/messages`, token, {
        message_type: 'Text',
        message: 'こんにちは、ワールドで会いましょう！',
        pos: { x: 1, y: 0, z: 2 },
      });
      assert.equal(said.status, 201, JSON.stringify(said.body));
      const heard = await stream.next((m) => m.id === said.body.id);
      assert.deepEqual([heard.message, heard.user_name_en], ['こんにちは、ワールドで会いましょう！', ACCOUNT.name_en]);
    } finally {
      stream.close();
    }
    const joinUrl = `https://vrchat.com/home/launch?worldId=wrld_e2e&instanceId=${STAMP}`;
    const beat = await call('PUT', '/ingame/user/presence', token, {
      channel_session_code: channel,
      join_url: joinUrl,
      joinable: true,
      invitable: true,
    });
    assert.equal(beat.status, 204, JSON.stringify(beat.body));
    const portal = await getWith('/ingame/user/portal', friendToken);
    assert.deepEqual(
      portal.body.data.map((/** @type {any} */ p) => [p.id, p.joinable, p.join_url]),
      [[me.body.id, true, joinUrl]],
    );

    // English, phone width: a second game's code typed by hand, and refused.
    await page.setViewportSize({ width: 390, height: 844 });
    const second = (await postForm('/ingame/auth/device', { client_id: 'Unknown app' })).body;
    const refusal = pollUntilDecided(second);
    await page.goto(url('/en/mypage/ingame'));
    assert.equal(await page.locator('h1').textContent(), EN.ingame.title);
    assert.equal(await page.getByTestId('ingame-session').count(), 1);
    await screenshot(page, 'ingame-en-390.png');
    await page.locator('#code').fill(second.user_code.toLowerCase().replace('-', ' '));
    await Promise.all([page.waitForURL((u) => u.pathname === '/en/mypage/ingame/check'), page.getByTestId('ingame-continue').click()]);
    assert.match((await page.getByTestId('ingame-asking').textContent()) ?? '', /“Unknown app”/);
    await screenshot(page, 'ingame-confirm-en-390.png');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the confirmation fits 390 px (${overflow} px over)`);
    await Promise.all([page.waitForURL((u) => u.searchParams.get('done') === 'denied'), page.getByTestId('ingame-deny').click()]);
    assert.equal((await page.getByTestId('done').textContent())?.trim(), EN.ingame.done.denied);
    const refused = await refusal;
    assert.deepEqual([refused.status, refused.body.error], [400, 'access_denied']);

    // Signing the first game out ends its token.
    await Promise.all([page.waitForURL((u) => u.searchParams.get('done') === 'revoked'), page.getByTestId('ingame-revoke').click()]);
    assert.equal(await page.getByTestId('ingame-session').count(), 0);
    assert.equal((await getWith('/ingame/user', token)).status, 401);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
