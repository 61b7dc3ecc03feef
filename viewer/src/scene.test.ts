import { describe, expect, it } from 'vitest';
import { cameraDistance } from './scene';

describe('cameraDistance', () => {
  it('backs off far enough to see the whole box, a tenth more', () => {
    // A 1.6 m avatar's box, seen at 35°: its half diagonal over sin(17.5°), plus 10 %.
    const size: [number, number, number] = [0.6, 1.6, 0.4];
    const radius = Math.hypot(...size) / 2;
    expect(cameraDistance(size, 35)).toBeCloseTo((radius / Math.sin((35 * Math.PI) / 360)) * 1.1, 9);
    expect(cameraDistance([2, 2, 2], 35)).toBeGreaterThan(cameraDistance([1, 1, 1], 35));
  });

  it('never puts the camera inside an empty model', () => {
    expect(cameraDistance([0, 0, 0], 35)).toBeGreaterThan(0);
  });
});
