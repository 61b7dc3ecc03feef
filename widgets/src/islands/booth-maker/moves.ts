/**
 * The editor's small moves of one item (pure), each followed by a snap so that the result is
 * always a valid placement: nudge (floor and ceiling items on x/z, wall items along their wall
 * and in height), turn (15° about Y; wall items about the wall's normal), scale (×/÷ 1.1 on every
 * axis) and the offset copy that duplicate makes.
 */
import { DEG, multiply, rollQuat, rotate, yawQuat } from './math';
import { snapItem, WALL_YAW, wallOf, type SnapContext } from './snap';
import type { ItemStats, SceneItem, Vec3 } from './types';

/** Metres an arrow key moves; with Shift, {@link FINE_STEP}. */
export const STEP = 0.1;
export const FINE_STEP = 0.01;
/** Degrees a turn key turns. */
export const TURN = 15;
/** Factor a scale key multiplies by. */
export const SCALE_STEP = 1.1;
/** How far a duplicate lands from its original (metres). */
export const DUPLICATE_OFFSET = 0.2;

/** The direction along a wall item's wall that "right" means, seen from inside the room. */
function alongWall(item: SceneItem): Vec3 {
  return rotate(yawQuat(WALL_YAW[wallOf(item.rotation)]), [1, 0, 0]);
}

/**
 * `item` moved by `step` metres: `right` (−1, 0, 1) to the right as seen from the front, `up`
 * (−1, 0, 1) away from the viewer for floor and ceiling items, upwards for wall items.
 */
export function nudge(item: SceneItem, stats: ItemStats, right: number, up: number, step: number, ctx: SnapContext): SceneItem {
  const [x, y, z] = item.position;
  let position: Vec3;
  if (item.sub_type === 'wall') {
    const t = alongWall(item);
    position = [x + t[0] * right * step, y + up * step, z + t[2] * right * step];
  } else {
    position = [x + right * step, y, z - up * step];
  }
  return snapItem({ ...item, position }, stats, ctx);
}

/** `item` turned by `degrees` (positive: anticlockwise seen from above, or from the room for wall items). */
export function turn(item: SceneItem, stats: ItemStats, degrees: number, ctx: SnapContext): SceneItem {
  const rotation =
    item.sub_type === 'wall' ? multiply(item.rotation, rollQuat(degrees * DEG)) : multiply(yawQuat(degrees * DEG), item.rotation);
  return snapItem({ ...item, rotation }, stats, ctx);
}

/** `item` scaled by `factor` on every axis (then clamped into the limits). */
export function rescale(item: SceneItem, stats: ItemStats, factor: number, ctx: SnapContext): SceneItem {
  const scale = item.scale.map((s) => s * factor) as Vec3;
  return snapItem({ ...item, scale }, stats, ctx);
}

/** A copy of `item` a little to its right (along its wall for wall items), snapped. */
export function duplicateOf(item: SceneItem, stats: ItemStats, ctx: SnapContext): SceneItem {
  const copy = nudge(item, stats, 1, 0, DUPLICATE_OFFSET, ctx);
  return { ...copy, position: [...copy.position], rotation: [...copy.rotation], scale: [...copy.scale] };
}
