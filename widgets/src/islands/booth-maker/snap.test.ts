import { describe, expect, it } from 'vitest';
import { CTX, item, stats } from './fixtures.test-helpers';
import { DEG, multiply, rotate, yawQuat } from './math';
import { clampScale, nearestWall, placeNew, snapItem } from './snap';
import { itemBox } from './totals';
import type { Quat } from './types';

const close = (a: number[], b: number[], digits = 6): void => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, digits));

describe('snapItem', () => {
  it('rests a floor item on y = 0 and keeps only its turn about Y', () => {
    // Tilted 30° about X and turned 45° about Y, floating at 1.7 m: the tilt goes, the turn stays.
    const tilt: Quat = [Math.sin(15 * DEG), 0, 0, Math.cos(15 * DEG)];
    const s = stats({ box_min: [-0.5, -0.2, -0.25], box_max: [0.5, 1, 0.25] });
    const snapped = snapItem(item(1, 'floor', [0.3, 1.7, 0.2], { rotation: multiply(yawQuat(45 * DEG), tilt) }), s, CTX);
    close(snapped.rotation, yawQuat(45 * DEG));
    expect(snapped.position[1]).toBeCloseTo(0.2, 9);
    expect(itemBox(snapped, s).min[1]).toBeCloseTo(0, 9);
    close([snapped.position[0], snapped.position[2]], [0.3, 0.2]);
  });

  it('rests a scaled floor item by its lowest scaled point', () => {
    const s = stats({ box_min: [-0.5, -0.5, -0.5], box_max: [0.5, 0.5, 0.5] });
    const snapped = snapItem(item(1, 'floor', [0, 0, 0], { scale: [2, 3, 2] }), s, CTX);
    expect(snapped.position[1]).toBeCloseTo(1.5, 9);
  });

  it('hangs a ceiling item with its highest point at y = h', () => {
    const s = stats({ box_min: [-0.2, -0.4, -0.2], box_max: [0.2, 0.1, 0.2] });
    const snapped = snapItem(item(1, 'ceiling', [0, 1, 0], { rotation: [0.3, 0.2, 0.1, 0.9] }), s, CTX);
    expect(snapped.rotation[0]).toBe(0);
    expect(snapped.rotation[2]).toBe(0);
    expect(snapped.position[1]).toBeCloseTo(2.9, 9);
    expect(itemBox(snapped, s).max[1]).toBeCloseTo(3, 9);
  });

  it('attaches a wall item to the nearest wall, back flush, facing into the room', () => {
    const s = stats({ box_min: [-0.3, -0.3, -0.05], box_max: [0.3, 0.3, 0.05] });
    // Back wall (z = -1): distance 0.2, the others 1.2 and 3.2.
    const back = snapItem(item(1, 'wall', [-0.8, 1.4, -0.8]), s, CTX);
    close(back.position, [-0.8, 1.4, -0.95]);
    close(back.rotation, [0, 0, 0, 1]);
    // Left wall (x = -2): 0.1 away.
    const left = snapItem(item(1, 'wall', [-1.9, 1.2, 0.3]), s, CTX);
    close(left.rotation, yawQuat(90 * DEG));
    expect(left.position[0]).toBeCloseTo(-1.95, 9);
    expect(itemBox(left, s).min[0]).toBeCloseTo(-2, 9);
    // Its back (local -Z) faces the wall: local -Z points to -X.
    close(rotate(left.rotation, [0, 0, -1]), [-1, 0, 0]);
    // Right wall (x = 2).
    const right = snapItem(item(1, 'wall', [1.7, 1.2, 0.3]), s, CTX);
    close(right.rotation, yawQuat(-90 * DEG));
    expect(itemBox(right, s).max[0]).toBeCloseTo(2, 9);
    close([right.position[1], right.position[2]], [1.2, 0.3]);
  });

  it('keeps a wall item turned about the wall normal when it moves to another wall', () => {
    const s = stats({ box_min: [-0.3, -0.3, -0.05], box_max: [0.3, 0.3, 0.05] });
    const roll: Quat = [0, 0, Math.sin(15 * DEG), Math.cos(15 * DEG)];
    const moved = snapItem(item(1, 'wall', [-1.95, 1.2, 0], { rotation: roll }), s, CTX);
    close(moved.rotation, multiply(yawQuat(90 * DEG), roll));
  });

  it('clamps the origin into the interior and the scale into the limits', () => {
    const s = stats();
    const snapped = snapItem(item(1, 'floor', [9, 0, -7], { scale: [0.01, 50, Number.NaN] }), s, CTX);
    close(snapped.position, [2, 0, -1]);
    expect(snapped.scale).toEqual([0.1, 10, 1]);
    expect(clampScale([0.05, 3, 11], CTX.limits)).toEqual([0.1, 3, 10]);
  });

  it('picks the nearest wall with ties going to the back wall', () => {
    expect(nearestWall([0, 1, -0.9], [4, 3, 2])).toBe('back');
    expect(nearestWall([-1.95, 1, 0], [4, 3, 2])).toBe('left');
    expect(nearestWall([1.5, 1, 0.9], [4, 3, 2])).toBe('right');
    expect(nearestWall([-0.5, 1, -0.5], [2, 3, 2])).toBe('back');
  });
});

describe('placeNew', () => {
  it('puts floor items at the centre, then beside what already stands there', () => {
    const entry = { asset_version_id: 3, sub_type: 'floor' as const, stats: stats() };
    const first = placeNew(entry, [], CTX);
    close(first.position, [0, 0, 0]);
    const second = placeNew(entry, [first], CTX);
    close(second.position, [0.5, 0, 0]);
    const third = placeNew(entry, [first, second], CTX);
    close(third.position, [-0.5, 0, 0]);
  });

  it('puts wall items on the back wall at 1.5 m (or half the height) and ceiling items at the top', () => {
    const s = stats({ box_min: [-0.3, -0.3, -0.05], box_max: [0.3, 0.3, 0.05] });
    close(placeNew({ asset_version_id: 1, sub_type: 'wall', stats: s }, [], CTX).position, [0, 1.5, -0.95]);
    const low = { ...CTX, size: [4, 2.4, 2] as [number, number, number] };
    close(placeNew({ asset_version_id: 1, sub_type: 'wall', stats: s }, [], low).position, [0, 1.2, -0.95]);
    close(placeNew({ asset_version_id: 1, sub_type: 'ceiling', stats: stats() }, [], CTX).position, [0, 2, 0]);
  });
});
