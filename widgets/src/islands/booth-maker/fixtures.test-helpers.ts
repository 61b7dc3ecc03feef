/** Test fixtures shared by the booth maker's unit tests: a 4 × 3 × 2 m home and a few items. */
import type { ItemStats, SceneItem, SubType, Vec3 } from './types';
import type { SnapContext } from './snap';

export const CTX: SnapContext = { size: [4, 3, 2], limits: { min_scale: 0.1, max_scale: 10 } };

export function stats(over: Partial<ItemStats> = {}): ItemStats {
  return { triangles: 100, materials: 1, texture_memory: 1000, bytes: 5000, box_min: [-0.5, 0, -0.25], box_max: [0.5, 1, 0.25], ...over };
}

export function item(id: number, sub: SubType, position: Vec3, over: Partial<SceneItem> = {}): SceneItem {
  return { asset_version_id: id, sub_type: sub, position, rotation: [0, 0, 0, 1], scale: [1, 1, 1], ...over };
}
