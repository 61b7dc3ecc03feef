/**
 * A scene's totals and its rule check, computed exactly as the server does
 * (`src/booth/totals.rs`; it is the authority): `triangles` counts every placed item,
 * `materials`, `texture_memory` and `bytes` each asset version once (instances share them), and
 * `box` is the size of the axis-aligned union of every item's own box scaled, rotated and moved
 * as placed. A rule is over when the total is larger than its limit (a box: on any axis, beyond
 * 1e-6 m). Also the editor's own {@link highlight}: which items to mark for each rule over.
 */
import { corners, rotate } from './math';
import type { Finding, ItemStats, RuleView, SceneItem, SumKind, Totals, Vec3 } from './types';

/** How far beyond a box limit still counts as within it (metres). */
export const BOX_SLACK = 1e-6;

/** The report figures of each placed asset version, by `asset_version_id`. */
export type StatsMap = ReadonlyMap<number, ItemStats>;

/** An axis-aligned box. */
export interface Box {
  min: Vec3;
  max: Vec3;
}

/** The item's own box, scaled, rotated and moved as placed (axis-aligned in the home). */
export function itemBox(item: SceneItem, stats: ItemStats): Box {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const c of corners(stats.box_min, stats.box_max)) {
    const r = rotate(item.rotation, [c[0] * item.scale[0], c[1] * item.scale[1], c[2] * item.scale[2]]);
    for (let a = 0; a < 3; a += 1) {
      const v = r[a]! + item.position[a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  return { min, max };
}

/** The union of the boxes of the items whose stats are known; null when there is none. */
export function unionBox(items: readonly SceneItem[], stats: StatsMap): Box | null {
  let union: Box | null = null;
  for (const item of items) {
    const s = stats.get(item.asset_version_id);
    if (!s) continue;
    const b = itemBox(item, s);
    if (!union) union = { min: [...b.min], max: [...b.max] };
    else
      for (let a = 0; a < 3; a += 1) {
        union.min[a] = Math.min(union.min[a]!, b.min[a]!);
        union.max[a] = Math.max(union.max[a]!, b.max[a]!);
      }
  }
  return union;
}

const VERSION_SUMS = { max_materials: 'materials', max_texture_memory: 'texture_memory', max_bytes: 'bytes' } as const;

/** The scene's sums (items without known stats count as items and add nothing else). */
export function computeTotals(items: readonly SceneItem[], stats: StatsMap): Totals {
  const totals: Totals = { items: items.length, triangles: 0, materials: 0, texture_memory: 0, bytes: 0, box: [0, 0, 0] };
  const seen = new Set<number>();
  for (const item of items) {
    const s = stats.get(item.asset_version_id);
    if (!s) continue;
    totals.triangles += s.triangles;
    if (seen.has(item.asset_version_id)) continue;
    seen.add(item.asset_version_id);
    totals.materials += s.materials;
    totals.texture_memory += s.texture_memory;
    totals.bytes += s.bytes;
  }
  const union = unionBox(items, stats);
  if (union) totals.box = [union.max[0] - union.min[0], union.max[1] - union.min[1], union.max[2] - union.min[2]];
  return totals;
}

/** The total a sum rule limits. */
export function sumOf(totals: Totals, kind: SumKind): number {
  return kind === 'max_triangles' ? totals.triangles : totals[VERSION_SUMS[kind]];
}

/** The axes (0 = x, 1 = y, 2 = z) on which `box` is beyond `limit`. */
export function overAxes(box: Vec3, limit: Vec3): number[] {
  return [0, 1, 2].filter((a) => box[a]! > limit[a]! + BOX_SLACK);
}

/** Whether the scene with `totals` is over `rule`. */
export function isOver(rule: RuleView, totals: Totals): boolean {
  return rule.kind === 'bounding_box' ? overAxes(totals.box, rule.limit).length > 0 : sumOf(totals, rule.kind) > rule.limit;
}

/** The rules the scene is over, in rule order. */
export function checkRules(totals: Totals, rules: readonly RuleView[]): Finding[] {
  return rules
    .filter((rule) => isOver(rule, totals))
    .map((rule) => ({
      rule_id: rule.rule_id,
      kind: rule.kind,
      severity: rule.severity,
      limit: rule.limit,
      actual: rule.kind === 'bounding_box' ? totals.box : sumOf(totals, rule.kind),
    }));
}

/** Items whose box touches the union's min or max on an axis the box rule is over. */
function boxCulprits(items: readonly SceneItem[], stats: StatsMap, axes: number[]): number[] {
  const union = unionBox(items, stats);
  if (!union) return [];
  const out: number[] = [];
  items.forEach((item, i) => {
    const s = stats.get(item.asset_version_id);
    if (!s) return;
    const b = itemBox(item, s);
    if (axes.some((a) => b.min[a]! <= union.min[a]! + BOX_SLACK || b.max[a]! >= union.max[a]! - BOX_SLACK)) out.push(i);
  });
  return out;
}

/** The fewest items, largest contribution first, whose removal brings a sum within `limit`. */
function sumCulprits(items: readonly SceneItem[], stats: StatsMap, kind: SumKind, limit: number): number[] {
  if (kind === 'max_triangles') {
    const order = items
      .map((item, i) => ({ i, value: stats.get(item.asset_version_id)?.triangles ?? 0 }))
      .sort((a, b) => b.value - a.value || a.i - b.i);
    let total = order.reduce((sum, o) => sum + o.value, 0);
    const out: number[] = [];
    for (const o of order) {
      if (total <= limit) break;
      out.push(o.i);
      total -= o.value;
    }
    return out.sort((a, b) => a - b);
  }
  const field = VERSION_SUMS[kind];
  const versions = [...new Set(items.map((item) => item.asset_version_id))]
    .map((id, order) => ({ id, order, value: stats.get(id)?.[field] ?? 0 }))
    .sort((a, b) => b.value - a.value || a.order - b.order);
  let total = versions.reduce((sum, v) => sum + v.value, 0);
  const removed = new Set<number>();
  for (const v of versions) {
    if (total <= limit) break;
    removed.add(v.id);
    total -= v.value;
  }
  return items.flatMap((item, i) => (removed.has(item.asset_version_id) ? [i] : []));
}

/**
 * For each rule the scene is over, the items to mark (indices, ascending): for a box rule the
 * items on the union's edge along an over axis, for a sum rule the fewest items (largest
 * first) whose removal would bring it within the limit.
 */
export function highlight(items: readonly SceneItem[], stats: StatsMap, rules: readonly RuleView[]): Map<string, number[]> {
  const totals = computeTotals(items, stats);
  const out = new Map<string, number[]>();
  for (const rule of rules) {
    if (!isOver(rule, totals)) continue;
    out.set(
      rule.rule_id,
      rule.kind === 'bounding_box'
        ? boxCulprits(items, stats, overAxes(totals.box, rule.limit))
        : sumCulprits(items, stats, rule.kind, rule.limit),
    );
  }
  return out;
}
