/**
 * Island discovery: every `[data-island="name"]` element of a server-rendered page gets the
 * registered React component, with props from its `data-props` JSON. Each island is its own
 * chunk (dynamic import), and React itself is loaded only on pages that have an island; the
 * component replaces the server's no-JS fallback inside the element.
 *
 * To add an island: create `islands/<name>/` with a default-exported component and add a
 * line to `ISLANDS`.
 */
import type { ComponentType } from 'react';
import type { Translate } from './i18n';

/** Props come from JSON, so islands are typed loosely here and strictly in their own module. */
export type IslandComponent = ComponentType<any>;
export type IslandLoader = () => Promise<{ default: IslandComponent }>;
export type IslandRegistry = Readonly<Record<string, IslandLoader>>;

/** Island name → lazy component. */
export const ISLANDS: IslandRegistry = {
  'asset-status': () => import('./islands/asset-status/AssetStatus'),
  'asset-upload': () => import('./islands/asset-upload/AssetUpload'),
  'booth-maker': () => import('./islands/booth-maker/BoothMaker'),
  'model-preview': () => import('./islands/model-preview/ModelPreview'),
  'phase-countdown': () => import('./islands/phase-countdown/PhaseCountdown'),
  'profile-form': () => import('./islands/profile-form/ProfileForm'),
  'stripe-card': () => import('./islands/stripe-card/StripeCard'),
};

export interface MountOptions {
  registry?: IslandRegistry;
  /** Called when an island's chunk fails to load or it cannot render. */
  onError?: (error: unknown, element: HTMLElement) => void;
}

/** Parses `data-props`; absent means `{}`, anything but a JSON object is an error. */
export function parseIslandProps(raw: string | null): Record<string, unknown> {
  if (raw === null || raw.trim() === '') return {};
  const value: unknown = JSON.parse(raw);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('data-props must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * Mounts one island element (once; its `data-island-state` tells loading, mounted or failed).
 * Rejects if its chunk cannot be loaded, so the caller can recover from chunk errors.
 */
export async function mountIsland(el: HTMLElement, t: Translate, registry: IslandRegistry = ISLANDS): Promise<void> {
  if (el.dataset.islandState) return;
  const name = el.dataset.island ?? '';
  const loader = Object.prototype.hasOwnProperty.call(registry, name) ? registry[name] : undefined;
  if (!loader) {
    console.warn(`[vmarket] unknown island "${name}"`);
    return;
  }
  let props: Record<string, unknown>;
  try {
    props = parseIslandProps(el.getAttribute('data-props'));
  } catch (err) {
    console.warn(`[vmarket] bad data-props on island "${name}"; keeping the fallback`, err);
    return;
  }
  el.dataset.islandState = 'loading';
  try {
    const [{ renderIsland }, { default: Component }] = await Promise.all([import('./mount'), loader()]);
    renderIsland(el, Component, props, t);
    el.dataset.islandState = 'mounted';
  } catch (err) {
    el.dataset.islandState = 'failed';
    throw err;
  }
}

/**
 * Mounts every island under `root`. `getTranslate` is only called when there is at least one
 * island, so pages without islands load no messages.
 */
export async function mountIslands(
  root: ParentNode,
  getTranslate: () => Promise<Translate>,
  opts: MountOptions = {},
): Promise<void> {
  const elements = Array.from(root.querySelectorAll<HTMLElement>('[data-island]'));
  if (elements.length === 0) return;
  const t = await getTranslate();
  const onError = opts.onError ?? ((err: unknown) => console.error('[vmarket] island failed', err));
  await Promise.all(
    elements.map((el) => mountIsland(el, t, opts.registry).catch((err: unknown) => onError(err, el))),
  );
}
