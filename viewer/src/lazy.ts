/**
 * `@vmarket/viewer/lazy`: starts a preview from a component's effect without loading three.js
 * up front — the scene module is imported only when a preview starts — and answers the effect's
 * cleanup, which stops a preview still loading or frees one already drawn.
 */
import type { Preview } from './scene';

/** What a started preview reports. */
export interface PreviewEvents {
  /** Drawn: the model's size in metres (x, y, z). */
  ready(size: Preview['size']): void;
  /** No WebGL, or the file could not be drawn. */
  failed(): void;
}

/** Draws `url` on `canvas` (keys listened to on `keys`); answers the cleanup. */
export function startPreview(
  canvas: HTMLCanvasElement,
  url: string,
  keys: HTMLElement,
  events: PreviewEvents,
): () => void {
  let stopped = false;
  let dispose: (() => void) | null = null;
  void (async () => {
    try {
      const { mountPreview } = await import('./scene');
      if (stopped) return;
      const preview = await mountPreview(canvas, url, keys);
      if (stopped) {
        preview.dispose();
        return;
      }
      dispose = preview.dispose;
      events.ready(preview.size);
    } catch (err) {
      console.warn('[vmarket] the 3D preview failed', err);
      if (!stopped) events.failed();
    }
  })();
  return () => {
    stopped = true;
    dispose?.();
  };
}
