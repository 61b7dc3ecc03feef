import { describe, expect, it } from 'vitest';
import { baseName, formatBytes, formatDuration } from './format';

describe('format', () => {
  it('reads sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12 * 1024 * 1024)).toBe('12.0 MB');
  });
  it('reads durations as clock time', () => {
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(125)).toBe('2:05');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
  it('names an asset after its file', () => {
    expect(baseName('avatar.vrm')).toBe('avatar');
    expect(baseName('.hidden')).toBe('.hidden');
    expect(baseName('a.b.glb')).toBe('a.b');
  });
});
