import { describe, expect, it } from 'vitest';
import { CTX, item, stats } from './fixtures.test-helpers';
import { commandFor, type KeyPress } from './keys';
import { DEG, yawQuat } from './math';
import { duplicateOf, nudge, rescale, turn } from './moves';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('commandFor', () => {
  it('maps the editing keys', () => {
    expect(commandFor(press('ArrowLeft'))).toEqual({ kind: 'nudge', right: -1, up: 0, fine: false });
    expect(commandFor(press('ArrowUp', { shiftKey: true }))).toEqual({ kind: 'nudge', right: 0, up: 1, fine: true });
    expect(commandFor(press('q'))).toEqual({ kind: 'turn', degrees: 15 });
    expect(commandFor(press('E'))).toEqual({ kind: 'turn', degrees: -15 });
    expect(commandFor(press('+'))).toEqual({ kind: 'scale', up: true });
    expect(commandFor(press('-'))).toEqual({ kind: 'scale', up: false });
    expect(commandFor(press('Delete'))).toEqual({ kind: 'delete' });
    expect(commandFor(press('Backspace'))).toEqual({ kind: 'delete' });
    expect(commandFor(press('Escape'))).toEqual({ kind: 'deselect' });
  });

  it('maps Ctrl and Cmd shortcuts', () => {
    expect(commandFor(press('d', { ctrlKey: true }))).toEqual({ kind: 'duplicate' });
    expect(commandFor(press('z', { metaKey: true }))).toEqual({ kind: 'undo' });
    expect(commandFor(press('Z', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'redo' });
    expect(commandFor(press('y', { ctrlKey: true }))).toEqual({ kind: 'redo' });
  });

  it('leaves the browser its own shortcuts', () => {
    expect(commandFor(press('+', { ctrlKey: true }))).toBeNull();
    expect(commandFor(press('ArrowLeft', { altKey: true }))).toBeNull();
    expect(commandFor(press('r', { ctrlKey: true }))).toBeNull();
    expect(commandFor(press('Tab'))).toBeNull();
    expect(commandFor(press('a'))).toBeNull();
  });
});

describe('moves', () => {
  const s = stats();
  const wallStats = stats({ box_min: [-0.3, -0.3, -0.05], box_max: [0.3, 0.3, 0.05] });

  it('nudges floor items on x and z, and snaps', () => {
    const moved = nudge(item(1, 'floor', [0, 0, 0]), s, 1, 1, 0.1, CTX);
    expect(moved.position[0]).toBeCloseTo(0.1, 9);
    expect(moved.position[2]).toBeCloseTo(-0.1, 9);
    expect(moved.position[1]).toBe(0);
  });

  it('nudges wall items along their wall and in height', () => {
    const onLeft = item(1, 'wall', [-1.95, 1.2, 0], { rotation: yawQuat(90 * DEG) });
    const right = nudge(onLeft, wallStats, 1, 0, 0.1, CTX);
    // Seen from the room, right along the left wall is towards the back (-z).
    expect(right.position[2]).toBeCloseTo(-0.1, 9);
    expect(right.position[0]).toBeCloseTo(-1.95, 9);
    expect(nudge(onLeft, wallStats, 0, 1, 0.01, CTX).position[1]).toBeCloseTo(1.21, 9);
  });

  it('turns floor items about Y and wall items about the wall normal, keeping them snapped', () => {
    const turned = turn(item(1, 'floor', [0, 0, 0]), s, 15, CTX);
    turned.rotation.forEach((v, i) => expect(v).toBeCloseTo(yawQuat(15 * DEG)[i]!, 9));
    const wall = turn(item(1, 'wall', [0, 1.5, -0.95]), wallStats, 15, CTX);
    expect(wall.rotation[2]).toBeCloseTo(Math.sin(7.5 * DEG), 9);
    expect(wall.position[2]).toBeCloseTo(-0.95, 9);
  });

  it('scales by 1.1 within the limits and rests again on the floor', () => {
    const big = rescale(item(1, 'floor', [0, 0, 0], { scale: [9.5, 9.5, 9.5] }), stats({ box_min: [-0.5, -0.5, -0.5], box_max: [0.5, 0.5, 0.5] }), 1.1, CTX);
    expect(big.scale).toEqual([10, 10, 10]);
    expect(big.position[1]).toBeCloseTo(3, 9);
  });

  it('duplicates 0.2 m to the right', () => {
    expect(duplicateOf(item(1, 'floor', [0, 0, 0]), s, CTX).position[0]).toBeCloseTo(0.2, 9);
  });
});
