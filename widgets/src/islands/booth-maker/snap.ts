/**
 * Where furniture may stand, as the server expects it (pure): floor items rest their lowest
 * point on the floor and only turn about Y; ceiling items hang their highest point at the
 * ceiling and only turn about Y; wall items sit on the nearest wall (back, left or right; the
 * front is open) with their back (local −Z side) flush to it, facing into the room, turned only
 * about the wall's normal. Then the item's origin is clamped into the interior
 * (`x ∈ [−w/2, w/2], y ∈ [0, h], z ∈ [−d/2, d/2]` for `size = [w, h, d]`), and its scale into the
 * limits. Also where a new item from the palette goes first.
 */
import { clamp, conjugate, multiply, normalize, twist, yawQuat } from './math';
import { itemBox } from './totals';
import type { ItemStats, Limits, Quat, SceneItem, SubType, Vec3 } from './types';

export type Wall = 'back' | 'left' | 'right';

/** The turn about Y that makes an item face into the room from each wall. */
export const WALL_YAW: Readonly<Record<Wall, number>> = { back: 0, left: Math.PI / 2, right: -Math.PI / 2 };

/** What snapping needs to know about the booth. */
export interface SnapContext {
  /** The home's interior `[w, h, d]`. */
  size: Vec3;
  limits: Pick<Limits, 'min_scale' | 'max_scale'>;
}

const finite = (v: number, fallback: number): number => (Number.isFinite(v) ? v : fallback);

/** Each axis clamped into `[min_scale, max_scale]` (1 when not a number). */
export function clampScale(scale: Vec3, limits: SnapContext['limits']): Vec3 {
  return scale.map((s) => clamp(finite(s, 1), limits.min_scale, limits.max_scale)) as Vec3;
}

/** The origin clamped into the interior. */
export function clampPosition(p: Vec3, size: Vec3): Vec3 {
  const [w, h, d] = size;
  return [clamp(finite(p[0], 0), -w / 2, w / 2), clamp(finite(p[1], 0), 0, h), clamp(finite(p[2], 0), -d / 2, d / 2)];
}

/** The wall nearest to `p` (ties: back, then left, then right). */
export function nearestWall(p: Vec3, size: Vec3): Wall {
  const [w, , d] = size;
  const distances: [Wall, number][] = [
    ['back', p[2] + d / 2],
    ['left', p[0] + w / 2],
    ['right', w / 2 - p[0]],
  ];
  let best = distances[0]!;
  for (const one of distances) if (one[1] < best[1]) best = one;
  return best[0];
}

/** The wall a wall item's rotation faces out from (by its turn about Y). */
export function wallOf(rotation: Quat): Wall {
  const yaw = twist(rotation, 1);
  const angle = 2 * Math.atan2(yaw[1], yaw[3]);
  const diff = (target: number): number => Math.abs(Math.atan2(Math.sin(angle - target), Math.cos(angle - target)));
  return (['back', 'left', 'right'] as Wall[]).reduce((a, b) => (diff(WALL_YAW[b]) < diff(WALL_YAW[a]) ? b : a));
}

/** `item` moved, turned and scaled to where its sub-type lets it stand. */
export function snapItem(item: SceneItem, stats: ItemStats, ctx: SnapContext): SceneItem {
  const [w, h, d] = ctx.size;
  const scale = clampScale(item.scale, ctx.limits);
  const position: Vec3 = [finite(item.position[0], 0), finite(item.position[1], 0), finite(item.position[2], 0)];
  const rotation0 = normalize(item.rotation.map((v) => finite(v, 0)) as Quat);
  let rotation: Quat;
  if (item.sub_type === 'wall') {
    const wall = nearestWall(position, ctx.size);
    const facing = yawQuat(WALL_YAW[wall]);
    rotation = multiply(facing, twist(multiply(conjugate(facing), rotation0), 2));
    const box = itemBox({ ...item, position: [0, 0, 0], rotation, scale }, stats);
    if (wall === 'back') position[2] = -d / 2 - box.min[2];
    else if (wall === 'left') position[0] = -w / 2 - box.min[0];
    else position[0] = w / 2 - box.max[0];
  } else {
    rotation = twist(rotation0, 1);
    const box = itemBox({ ...item, position: [0, 0, 0], rotation, scale }, stats);
    position[1] = item.sub_type === 'floor' ? -box.min[1] : h - box.max[1];
  }
  return { ...item, position: clampPosition(position, ctx.size), rotation, scale };
}

/** Where a new item of `subType` goes first: floor and ceiling at the centre, wall on the back wall. */
export function defaultSpot(subType: SubType, size: Vec3): Vec3 {
  const [, h, d] = size;
  if (subType === 'wall') return [0, Math.min(1.5, h / 2), -d / 2];
  return [0, subType === 'floor' ? 0 : h, 0];
}

/**
 * A new item of the palette entry, snapped, at its default spot or, when another item of the
 * same sub-type already stands there, the nearest free one along x (0.5 m steps).
 */
export function placeNew(
  entry: { asset_version_id: number; sub_type: SubType; stats: ItemStats },
  items: readonly SceneItem[],
  ctx: SnapContext,
): SceneItem {
  const base = defaultSpot(entry.sub_type, ctx.size);
  const half = ctx.size[0] / 2;
  const taken = (x: number): boolean =>
    items.some((o) => o.sub_type === entry.sub_type && Math.abs(o.position[0] - x) < 0.25 && Math.abs(o.position[2] - base[2]) < 0.25);
  let x = 0;
  for (let k = 1; k < 20 && taken(x); k += 1) {
    const candidate = (k % 2 === 1 ? 1 : -1) * Math.ceil(k / 2) * 0.5;
    if (Math.abs(candidate) > half) break;
    x = candidate;
  }
  const item: SceneItem = {
    asset_version_id: entry.asset_version_id,
    sub_type: entry.sub_type,
    position: [x, base[1], base[2]],
    rotation: [0, 0, 0, 1],
    scale: [1, 1, 1],
  };
  return snapItem(item, entry.stats, ctx);
}
