/**
 * Sends one file's parts to a multipart upload of the asset uploader (ASSETS.md "Upload"):
 * the parts the server already holds are skipped, up to three parts go at once, a part that
 * fails on the network or with a 5xx is sent again after a growing pause (and only once the
 * browser is back online), and the upload completes with every part's `ETag`. Pausing aborts
 * the parts in flight; resuming asks the server which parts it holds (with fresh URLs), so a
 * reload, a dropped connection or a second tab all resume the same way.
 *
 * Pure of the DOM but for {@link xhrPart}: the network comes in through {@link Ports}, so the
 * tests drive it with fakes of the three calls.
 */

/** Where one part goes. */
export interface PartTarget {
  part_number: number;
  url: string;
}

/** A part the server holds. */
export interface HeldPart {
  part_number: number;
  etag: string;
  size: number;
}

/** What the server says of an upload (`GET /uploader/uploads/{id}`). */
export interface UploadState {
  id: string;
  part_size: number;
  part_count: number;
  parts: PartTarget[];
  parts_received: HeldPart[];
}

/** A part's `PUT` failed with this status (0: no answer). */
export class PartError extends Error {
  readonly status: number;

  constructor(status: number) {
    super(`part upload failed (${status || 'network'})`);
    this.name = 'PartError';
    this.status = status;
  }
}

/** The network and the clock, injected. */
export interface Ports {
  /** PUTs `body` to `url`, reporting bytes sent; resolves to the answer's `ETag`. */
  sendPart(url: string, body: Blob, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<string>;
  /** The upload as the server holds it. */
  refresh(uploadId: string): Promise<UploadState>;
  /** Completes the upload. */
  complete(uploadId: string, parts: { part_number: number; etag: string }[]): Promise<void>;
  /** Waits `ms` (rejects when `signal` aborts). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Resolves once the browser is online (at once when it is). */
  online(signal: AbortSignal): Promise<void>;
  /** Milliseconds, for the speed. */
  now(): number;
}

/** How far a transfer is. */
export interface Progress {
  sent: number;
  total: number;
  /** Bytes per second over the last few seconds; 0 until measured. */
  bytesPerSecond: number;
  /** Seconds left at that speed; null until measured. */
  secondsLeft: number | null;
  /** A part is waiting to be sent again. */
  retrying: boolean;
}

export interface TransferOptions {
  concurrency?: number;
  /** Sends of one part before the transfer gives up (the user may resume). */
  attempts?: number;
  onProgress?: (progress: Progress) => void;
}

/** The byte range of part `n` (1-based) of a file of `total` bytes cut in `partSize` parts. */
export function partRange(n: number, partSize: number, total: number): [number, number] {
  const start = (n - 1) * partSize;
  return [start, Math.min(start + partSize, total)];
}

/** The pause before send number `attempt` (1-based) of a part: 1 s, 2 s, 4 s … at most 15 s. */
export function backoffMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 15_000);
}

/** How long the speed is averaged over. */
const WINDOW_MS = 5000;

/** Bytes per second over a sliding window of samples. */
export class SpeedMeter {
  private samples: [number, number][] = [];

  /** Records that `sent` bytes were sent by `at` (ms). */
  add(at: number, sent: number): void {
    this.samples.push([at, sent]);
    while (this.samples.length > 2 && at - (this.samples[0]?.[0] ?? at) > WINDOW_MS) this.samples.shift();
  }

  /** Forgets the samples (after a pause, the idle time is not speed). */
  reset(): void {
    this.samples = [];
  }

  bytesPerSecond(): number {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || this.samples.length < 2) return 0;
    const [t0, s0] = first;
    const [t1, s1] = last;
    return t1 > t0 && s1 > s0 ? ((s1 - s0) * 1000) / (t1 - t0) : 0;
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException ? err.name === 'AbortError' : (err as { name?: string })?.name === 'AbortError';
}

/** One file's transfer into an open upload. */
export class Transfer {
  private readonly etags = new Map<number, string>();
  private readonly inFlight = new Map<number, number>();
  private readonly meter = new SpeedMeter();
  private controller: AbortController | null = null;
  private retrying = 0;
  private partSize = 0;

  constructor(
    private readonly file: Blob,
    readonly uploadId: string,
    private readonly ports: Ports,
    private readonly options: TransferOptions = {},
  ) {}

  /** Bytes the server holds or that are on their way. */
  sent(): number {
    let sent = 0;
    for (const n of this.etags.keys()) {
      const [start, end] = partRange(n, this.partSize, this.file.size);
      sent += end - start;
    }
    for (const loaded of this.inFlight.values()) sent += loaded;
    return Math.min(sent, this.file.size);
  }

  private report(): void {
    const sent = this.sent();
    this.meter.add(this.ports.now(), sent);
    const speed = this.meter.bytesPerSecond();
    this.options.onProgress?.({
      sent,
      total: this.file.size,
      bytesPerSecond: speed,
      secondsLeft: speed > 0 ? Math.ceil((this.file.size - sent) / speed) : null,
      retrying: this.retrying > 0,
    });
  }

  /**
   * Sends what the server lacks and completes the upload: `done`, or `paused` when {@link pause}
   * stopped it. Rejects when a part keeps failing (the caller offers to resume) or the server
   * refuses the upload.
   */
  async run(): Promise<'done' | 'paused'> {
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    this.meter.reset();
    this.inFlight.clear();
    try {
      const state = await this.ports.refresh(this.uploadId);
      this.partSize = state.part_size;
      this.etags.clear();
      for (const held of state.parts_received) {
        const [start, end] = partRange(held.part_number, state.part_size, this.file.size);
        if (held.size === end - start) this.etags.set(held.part_number, held.etag);
      }
      this.report();
      const queue = state.parts.filter((p) => !this.etags.has(p.part_number));
      const worker = async (): Promise<void> => {
        for (let part = queue.shift(); part; part = queue.shift()) {
          await this.sendWithRetries(part, signal);
        }
      };
      const workers = Array.from({ length: Math.max(1, this.options.concurrency ?? 3) }, worker);
      await Promise.all(workers);
      const parts = [...this.etags.entries()]
        .sort(([a], [b]) => a - b)
        .map(([part_number, etag]) => ({ part_number, etag }));
      await this.ports.complete(this.uploadId, parts);
      return 'done';
    } catch (err) {
      if (signal.aborted || isAbort(err)) return 'paused';
      controller.abort();
      throw err;
    } finally {
      this.inFlight.clear();
      this.retrying = 0;
      if (this.controller === controller) this.controller = null;
    }
  }

  /** Stops sending; parts in flight are dropped (the server keeps the finished ones). */
  pause(): void {
    this.controller?.abort();
  }

  private async sendWithRetries(part: PartTarget, signal: AbortSignal): Promise<void> {
    const attempts = this.options.attempts ?? 6;
    const [start, end] = partRange(part.part_number, this.partSize, this.file.size);
    const body = this.file.slice(start, end);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const etag = await this.ports.sendPart(
          part.url,
          body,
          (loaded) => {
            this.inFlight.set(part.part_number, loaded);
            this.report();
          },
          signal,
        );
        if (!etag) throw new PartError(-1);
        this.inFlight.delete(part.part_number);
        this.etags.set(part.part_number, etag);
        this.report();
        return;
      } catch (err) {
        this.inFlight.delete(part.part_number);
        if (signal.aborted || isAbort(err)) throw err;
        const status = err instanceof PartError ? err.status : 0;
        const transient = status === 0 || status >= 500 || status === 429;
        if (!transient || attempt >= attempts) throw err;
        this.retrying += 1;
        this.report();
        try {
          await this.ports.online(signal);
          await this.ports.sleep(backoffMs(attempt), signal);
        } finally {
          this.retrying -= 1;
        }
      }
    }
  }
}

/** {@link Ports.sendPart} over `XMLHttpRequest` (fetch cannot report upload progress). */
export function xhrPart(url: string, body: Blob, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = (): void => xhr.abort();
    signal.addEventListener('abort', abort, { once: true });
    xhr.open('PUT', url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      signal.removeEventListener('abort', abort);
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.getResponseHeader('ETag') ?? '');
      else reject(new PartError(xhr.status));
    };
    xhr.onerror = () => {
      signal.removeEventListener('abort', abort);
      reject(new PartError(0));
    };
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.send(body);
  });
}

/** {@link Ports.sleep} on timers. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** {@link Ports.online} on `navigator.onLine` and the `online` event. */
export function whenOnline(signal: AbortSignal): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      window.removeEventListener('online', done);
      resolve();
    };
    window.addEventListener('online', done);
    signal.addEventListener('abort', () => {
      window.removeEventListener('online', done);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });
}
