/**
 * The load of `bench/chat-stream`: opens `readers` event streams on one chat channel (tokens
 * taken in turn from `readerTokens`), waits until all are open, then posts `rate` messages a
 * second for `seconds` from the writers' tokens, each carrying the instant it was sent. Every
 * reader notes how long each message took to reach it. Prints one JSON line: the delivery
 * latencies' percentiles (ms), how many deliveries were expected and seen, and post statuses.
 *
 * Input (stdin, JSON): { base, channel, readerTokens, writerTokens, readers, rate, seconds }.
 * Node's own http client (no keep-alive pool limits for streams).
 */
import http from 'node:http';

const input = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (d) => (text += d));
  process.stdin.on('end', () => resolve(text));
}));
const { base, channel, readerTokens, writerTokens, readers, rate, seconds } = input;
const target = new URL(base);
const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const postAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** @type {number[]} */
const latencies = [];
let opened = 0;
let streamErrors = 0;

/** Opens one stream; resolves when the server answered its headers. */
function openStream(token) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: target.hostname,
        port: target.port,
        path: `/ingame/chat/${channel}/stream`,
        agent: streamAgent,
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          streamErrors += 1;
          reject(new Error(`stream answered ${res.statusCode}`));
          return;
        }
        opened += 1;
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          const now = Date.now();
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const at = block.indexOf('"message":"t=');
            if (at >= 0) latencies.push(now - Number(block.slice(at + 13, block.indexOf('"', at + 13))));
          }
        });
        res.on('error', () => (streamErrors += 1));
        resolve(undefined);
      },
    );
    req.on('error', (e) => {
      streamErrors += 1;
      reject(e);
    });
  });
}

/** Posts one message; its status. */
function post(token) {
  return new Promise((resolve) => {
    const body = JSON.stringify({ message_type: 'Text', message: `t=${Date.now()}` });
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `/ingame/chat/${channel}/messages`,
        method: 'POST',
        agent: postAgent,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

for (let i = 0; i < readers; i += 50) {
  const batch = [];
  for (let j = i; j < Math.min(readers, i + 50); j++) batch.push(openStream(readerTokens[j % readerTokens.length]));
  await Promise.all(batch);
}
process.stderr.write(`${opened} streams open\n`);
await new Promise((r) => setTimeout(r, 1000));

const statuses = {};
const posts = [];
const cpuBefore = process.cpuUsage();
const total = rate * seconds;
const started = Date.now();
for (let n = 0; n < total; n++) {
  const due = started + (n * 1000) / rate;
  const wait = due - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  posts.push(post(writerTokens[n % writerTokens.length]).then((s) => (statuses[s] = (statuses[s] ?? 0) + 1)));
}
await Promise.all(posts);
await new Promise((r) => setTimeout(r, 2000));
const sent = statuses[201] ?? 0;

latencies.sort((a, b) => a - b);
const pct = (p) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] : null;
process.stdout.write(
  `${JSON.stringify({
    streams: opened,
    stream_errors: streamErrors,
    posted: statuses,
    post_seconds: (Date.now() - started - 2000) / 1000,
    expected: sent * opened,
    delivered: latencies.length,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: latencies.at(-1) ?? null,
    client_cpu_s: (() => {
      const u = process.cpuUsage(cpuBefore);
      return Math.round((u.user + u.system) / 1e4) / 100;
    })(),
  })}\n`,
);
process.exit(0);
