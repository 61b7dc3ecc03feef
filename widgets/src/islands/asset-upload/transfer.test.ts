import { describe, expect, it } from 'vitest';
import { PartError, SpeedMeter, Transfer, backoffMs, partRange, type Ports, type Progress, type UploadState } from './transfer';

const MIB = 1024 * 1024;

/** A fake upload server: holds parts by number, answers like the uploader does. */
function fakeServer(size: number, partSize: number) {
  const count = Math.ceil(size / partSize);
  const held = new Map<number, { etag: string; size: number }>();
  const sends: number[] = [];
  const sleeps: number[] = [];
  let completed: { part_number: number; etag: string }[] | null = null;
  /** Fails the next sends of these parts with this status (0: network). */
  const failures = new Map<number, number[]>();
  let onSend: ((n: number) => void) | null = null;
  const ports: Ports = {
    async sendPart(url, body, onProgress, signal) {
      const n = Number(url.split('/').pop());
      sends.push(n);
      onSend?.(n);
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
      const queued = failures.get(n);
      const status = queued?.shift();
      if (status !== undefined) throw new PartError(status);
      onProgress(body.size);
      held.set(n, { etag: `"e${n}"`, size: body.size });
      return `"e${n}"`;
    },
    async refresh(id): Promise<UploadState> {
      return {
        id,
        part_size: partSize,
        part_count: count,
        parts: Array.from({ length: count }, (_, i) => ({ part_number: i + 1, url: `https://store/part/${i + 1}` })),
        parts_received: [...held.entries()].map(([part_number, p]) => ({ part_number, ...p })),
      };
    },
    async complete(_id, parts) {
      completed = parts;
    },
    async sleep(ms) {
      sleeps.push(ms);
    },
    async online() {},
    now: () => Date.now(),
  };
  return {
    ports,
    held,
    sends,
    sleeps,
    failures,
    completed: () => completed,
    setOnSend: (f: (n: number) => void) => (onSend = f),
  };
}

const file = (size: number): Blob => new Blob([new Uint8Array(size)]);

describe('partRange', () => {
  it('cuts a file into parts, the last taking the rest', () => {
    expect(partRange(1, 5 * MIB, 12 * MIB)).toEqual([0, 5 * MIB]);
    expect(partRange(3, 5 * MIB, 12 * MIB)).toEqual([10 * MIB, 12 * MIB]);
  });
});

describe('Transfer', () => {
  it('sends only the parts the server lacks and completes with every ETag in order', async () => {
    const server = fakeServer(12 * MIB, 5 * MIB);
    server.held.set(2, { etag: '"held2"', size: 5 * MIB });
    const progress: Progress[] = [];
    const result = await new Transfer(file(12 * MIB), 'u1', server.ports, { onProgress: (p) => progress.push(p) }).run();
    expect(result).toBe('done');
    expect(server.sends.sort()).toEqual([1, 3]);
    expect(server.completed()).toEqual([
      { part_number: 1, etag: '"e1"' },
      { part_number: 2, etag: '"held2"' },
      { part_number: 3, etag: '"e3"' },
    ]);
    expect(progress[0]?.sent).toBe(5 * MIB);
    expect(progress.at(-1)?.sent).toBe(12 * MIB);
  });

  it('sends a part again after a network failure or a 5xx, pausing longer each time', async () => {
    const server = fakeServer(11 * MIB, 5 * MIB);
    server.failures.set(2, [0, 503]);
    const result = await new Transfer(file(11 * MIB), 'u1', server.ports).run();
    expect(result).toBe('done');
    expect(server.sends.filter((n) => n === 2)).toHaveLength(3);
    expect(server.sleeps).toEqual([backoffMs(1), backoffMs(2)]);
    expect(server.completed()).toHaveLength(3);
  });

  it('does not resend a part the server refused (4xx) and gives up on a part that keeps failing', async () => {
    const refused = fakeServer(11 * MIB, 5 * MIB);
    refused.failures.set(1, [403]);
    await expect(new Transfer(file(11 * MIB), 'u1', refused.ports, { concurrency: 1 }).run()).rejects.toThrow(PartError);
    expect(refused.sends.filter((n) => n === 1)).toHaveLength(1);
    expect(refused.completed()).toBeNull();

    const failing = fakeServer(11 * MIB, 5 * MIB);
    failing.failures.set(1, [0, 0, 0]);
    await expect(new Transfer(file(11 * MIB), 'u1', failing.ports, { attempts: 3, concurrency: 1 }).run()).rejects.toThrow(
      PartError,
    );
    expect(failing.sends.filter((n) => n === 1)).toHaveLength(3);
  });

  it('pauses, then resumes with what the server holds without sending a finished part again', async () => {
    const server = fakeServer(16 * MIB, 5 * MIB);
    const transfer = new Transfer(file(16 * MIB), 'u1', server.ports, { concurrency: 1 });
    server.setOnSend((n) => {
      if (n === 3) transfer.pause();
    });
    expect(await transfer.run()).toBe('paused');
    expect([...server.held.keys()].sort()).toEqual([1, 2]);
    expect(server.completed()).toBeNull();

    server.setOnSend(() => {});
    expect(await transfer.run()).toBe('done');
    expect(server.sends).toEqual([1, 2, 3, 3, 4]);
    expect(server.completed()?.map((p) => p.part_number)).toEqual([1, 2, 3, 4]);
  });

  it('treats a part answered without an ETag as failed', async () => {
    const server = fakeServer(11 * MIB, 5 * MIB);
    server.ports.sendPart = async () => '';
    await expect(new Transfer(file(11 * MIB), 'u1', server.ports, { attempts: 1 }).run()).rejects.toThrow(PartError);
  });
});

describe('SpeedMeter', () => {
  it('averages over the last five seconds', () => {
    const meter = new SpeedMeter();
    expect(meter.bytesPerSecond()).toBe(0);
    meter.add(0, 0);
    meter.add(1000, 2 * MIB);
    expect(meter.bytesPerSecond()).toBe(2 * MIB);
    meter.add(10_000, 2 * MIB);
    meter.add(11_000, 3 * MIB);
    expect(meter.bytesPerSecond()).toBe(MIB);
  });
});
