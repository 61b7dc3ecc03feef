import { describe, expect, it } from 'vitest';
import { item, stats } from './fixtures.test-helpers';
import { DEG, yawQuat } from './math';
import { checkRules, computeTotals, highlight, itemBox } from './totals';
import type { ItemStats, RuleView } from './types';

const STATS = new Map<number, ItemStats>([
  [1, stats({ triangles: 1000, materials: 2, texture_memory: 4_000_000, bytes: 1_000_000 })],
  [2, stats({ triangles: 300, materials: 1, texture_memory: 1_000_000, bytes: 250_000, box_min: [0, 0, 0], box_max: [0.2, 0.4, 0.1] })],
]);

describe('computeTotals', () => {
  it('counts triangles per instance and the rest per distinct version', () => {
    const totals = computeTotals([item(1, 'floor', [0, 0, 0]), item(1, 'floor', [1, 0, 0]), item(2, 'floor', [0, 0, 0])], STATS);
    expect(totals.items).toBe(3);
    expect(totals.triangles).toBe(2300);
    expect(totals.materials).toBe(3);
    expect(totals.texture_memory).toBe(5_000_000);
    expect(totals.bytes).toBe(1_250_000);
  });

  it('is all zero for an empty scene', () => {
    expect(computeTotals([], STATS)).toEqual({ items: 0, triangles: 0, materials: 0, texture_memory: 0, bytes: 0, box: [0, 0, 0] });
  });

  it('unions the rotated, scaled and moved boxes', () => {
    // Version 1: 1 × 1 × 0.5 m, turned 90°: 0.5 wide (x), 1 deep (z), centred at x = -1.
    // Version 2: 0.2 × 0.4 × 0.1 from its origin, scaled ×2, at x = 1, z = 0.3.
    const totals = computeTotals(
      [item(1, 'floor', [-1, 0, 0], { rotation: yawQuat(90 * DEG) }), item(2, 'floor', [1, 0, 0.3], { scale: [2, 2, 2] })],
      STATS,
    );
    // x: -1.25 .. 1.4; y: 0 .. 1; z: -0.5 .. 0.5
    expect(totals.box[0]).toBeCloseTo(2.65, 9);
    expect(totals.box[1]).toBeCloseTo(1, 9);
    expect(totals.box[2]).toBeCloseTo(1, 9);
  });

  it('rotates a box by 45° into its wider footprint', () => {
    const b = itemBox(item(2, 'floor', [0, 0, 0], { rotation: yawQuat(45 * DEG) }), stats({ box_min: [-0.5, 0, -0.5], box_max: [0.5, 1, 0.5] }));
    expect(b.max[0] - b.min[0]).toBeCloseTo(Math.SQRT2, 9);
  });
});

describe('checkRules and highlight', () => {
  const rules: RuleView[] = [
    { rule_id: 'booth_box', severity: 'error', kind: 'bounding_box', limit: [2, 2, 2] },
    { rule_id: 'booth_triangles', severity: 'error', kind: 'max_triangles', limit: 1500 },
    { rule_id: 'booth_materials', severity: 'warning', kind: 'max_materials', limit: 2 },
    { rule_id: 'booth_bytes', severity: 'error', kind: 'max_bytes', limit: 10_000_000 },
  ];

  it('lists only the rules over, in rule order, with the actual values', () => {
    const items = [item(1, 'floor', [-1, 0, 0]), item(1, 'floor', [1, 0, 0]), item(2, 'floor', [0, 0, 0])];
    const findings = checkRules(computeTotals(items, STATS), rules);
    expect(findings.map((f) => f.rule_id)).toEqual(['booth_box', 'booth_triangles', 'booth_materials']);
    expect(findings[0]!.actual).toEqual([3, 1, 0.5]);
    expect(findings[1]).toMatchObject({ actual: 2300, limit: 1500, severity: 'error' });
  });

  it('is not over a box limit within 1e-6', () => {
    const items = [item(1, 'floor', [-0.5, 0, 0]), item(1, 'floor', [0.5000005, 0, 0])];
    expect(checkRules(computeTotals(items, STATS), rules.slice(0, 1))).toEqual([]);
    const further = [item(1, 'floor', [-0.5, 0, 0]), item(1, 'floor', [0.50001, 0, 0])];
    expect(checkRules(computeTotals(further, STATS), rules.slice(0, 1))).toHaveLength(1);
  });

  it('marks the items on the edge of an over box, and the fewest largest items of an over sum', () => {
    const items = [item(1, 'floor', [-1, 0, 0]), item(2, 'floor', [0, 0, 0]), item(1, 'floor', [1, 0, 0]), item(2, 'floor', [0.3, 0, 0])];
    const marks = highlight(items, STATS, rules);
    expect(marks.get('booth_box')).toEqual([0, 2]);
    // 2600 triangles over 1500: dropping one 1000 leaves 1600, two leave 600.
    expect(marks.get('booth_triangles')).toEqual([0, 2]);
    // 3 materials over 2: version 1 (2 materials) goes, with both its instances.
    expect(marks.get('booth_materials')).toEqual([0, 2]);
    expect(marks.has('booth_bytes')).toBe(false);
  });

  it('marks a single heavy instance when removing it is enough', () => {
    const items = [item(2, 'floor', [0, 0, 0]), item(1, 'floor', [0, 0, 0]), item(2, 'floor', [0, 0, 0])];
    const marks = highlight(items, STATS, [{ rule_id: 't', severity: 'error', kind: 'max_triangles', limit: 700 }]);
    expect(marks.get('t')).toEqual([1]);
  });
});
