/**
 * The draft's autosave: each change is sent 1 s after the last one (debounced), one request at a
 * time, always with the revision the server last answered. A `draft_conflict` (another tab or
 * window saved in between) stops it for good: nothing is ever overwritten. Other failures wait
 * for a retry or the next change. {@link DraftSaver.flush} sends what is waiting now (before a
 * save or a submission, or with `keepalive` when the page is hidden or closes).
 */
import { ApiError } from '../../api';
import type { DraftSaved, SceneJson } from './types';

export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'error' | 'conflict';

/** What the status line shows. */
export interface SaverSnapshot {
  state: SaveState;
  /** The newest draft revision the server answered. */
  revision: number;
  /** When the server last saved the draft (its `updated_at`). */
  savedAt: string | null;
  error: ApiError | null;
}

export interface SaverOptions {
  put(revision: number, scene: SceneJson, keepalive: boolean): Promise<DraftSaved>;
  revision: number;
  /** Debounce, ms. */
  delay?: number;
  /** Each successful save with the scene it saved. */
  onSaved?(result: DraftSaved, scene: SceneJson): void;
}

export const AUTOSAVE_DELAY_MS = 1000;

export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409 && err.code === 'draft_conflict';
}

export class DraftSaver {
  private snapshot: SaverSnapshot;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private latest: SceneJson | null = null;
  private dirty = false;

  constructor(private readonly opts: SaverOptions) {
    this.snapshot = { state: 'idle', revision: opts.revision, savedAt: null, error: null };
  }

  /** For `useSyncExternalStore`. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SaverSnapshot => this.snapshot;

  private set(patch: Partial<SaverSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** The scene changed: save it after the delay. */
  change(scene: SceneJson): void {
    if (this.snapshot.state === 'conflict') return;
    this.latest = scene;
    this.dirty = true;
    if (!this.inFlight) this.set({ state: 'pending' });
    this.arm();
  }

  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.send(false);
    }, this.opts.delay ?? AUTOSAVE_DELAY_MS);
  }

  /** Sends the waiting scene unless a request is in flight (then answers that one). */
  private send(keepalive: boolean): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (!this.dirty || !this.latest || this.snapshot.state === 'conflict') return Promise.resolve();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const scene = this.latest;
    this.dirty = false;
    this.set({ state: 'saving', error: null });
    this.inFlight = this.opts.put(this.snapshot.revision, scene, keepalive).then(
      (result) => {
        this.inFlight = null;
        this.set({ revision: result.revision, savedAt: result.updated_at, state: this.dirty ? 'pending' : 'saved' });
        this.opts.onSaved?.(result, scene);
        if (this.dirty) this.arm();
      },
      (err: unknown) => {
        this.inFlight = null;
        if (isConflict(err)) {
          this.dirty = false;
          this.set({ state: 'conflict', error: err as ApiError });
          return;
        }
        this.dirty = true;
        const error = err instanceof ApiError ? err : new ApiError(0, 'network_error', String(err));
        this.set({ state: 'error', error });
      },
    );
    return this.inFlight;
  }

  /**
   * Sends what is waiting now and waits until everything is saved: true when it is, false after
   * an error or a conflict.
   */
  async flush(keepalive = false): Promise<boolean> {
    for (;;) {
      if (this.snapshot.state === 'conflict') return false;
      if (this.inFlight) {
        await this.inFlight;
        continue;
      }
      if (!this.dirty) return this.snapshot.state !== 'error';
      await this.send(keepalive);
      if (this.snapshot.state === 'error') return false;
    }
  }

  /** Sends at once (the page is being hidden or closed); never waits. */
  flushNow(): void {
    if (this.dirty && !this.inFlight) void this.send(true);
  }

  /** Another tab changed the booth (learnt from a save or a submission): stop saving. */
  markConflict(error: ApiError): void {
    this.dirty = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.set({ state: 'conflict', error });
  }

  /** Whether changes wait to be sent. */
  get hasPending(): boolean {
    return this.dirty || this.inFlight !== null;
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
