import { describe, expect, it } from 'vitest';
import { settled } from './AssetStatus';

describe('settled', () => {
  it('waits while any watched version is still in the pipeline', () => {
    expect(settled([1, 2], new Map([[1, 'uploaded'], [2, 'validating']]))).toBe(false);
    expect(settled([1], new Map())).toBe(false);
  });
  it('is done once every watched version passed or failed', () => {
    expect(settled([1, 2], new Map([[1, 'uploaded'], [2, 'failed']]))).toBe(true);
    expect(settled([1], new Map([[1, 'expired'], [3, 'waiting']]))).toBe(true);
  });
});
