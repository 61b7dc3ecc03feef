import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api';
import { DraftSaver } from './autosave';
import type { DraftSaved, SceneJson } from './types';

const scene = (n: number): SceneJson => ({ version: 1, home: 1, items: Array.from({ length: n }, () => ({ asset_version_id: 1, sub_type: 'floor', position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })) });
const answer = (revision: number): DraftSaved => ({ revision, updated_at: '2026-12-06T09:00:00Z', totals: { items: 0, triangles: 0, materials: 0, texture_memory: 0, bytes: 0, box: [0, 0, 0] }, findings: [] });

describe('DraftSaver', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends once, 1 s after the last change, with the revision the server last answered', async () => {
    const put = vi.fn(async (revision: number, _scene: SceneJson, _keepalive: boolean) => answer(revision + 1));
    const saver = new DraftSaver({ put, revision: 4 });
    saver.change(scene(1));
    await vi.advanceTimersByTimeAsync(600);
    saver.change(scene(2));
    await vi.advanceTimersByTimeAsync(600);
    expect(put).not.toHaveBeenCalled();
    expect(saver.getSnapshot().state).toBe('pending');
    await vi.advanceTimersByTimeAsync(400);
    expect(put).toHaveBeenCalledTimes(1);
    expect(put.mock.calls[0]![0]).toBe(4);
    expect(put.mock.calls[0]![1].items).toHaveLength(2);
    expect(saver.getSnapshot()).toMatchObject({ state: 'saved', revision: 5 });
    saver.change(scene(3));
    await vi.advanceTimersByTimeAsync(1000);
    expect(put.mock.calls[1]![0]).toBe(5);
  });

  it('keeps one request in flight and sends the newest scene after it', async () => {
    let release: (value: DraftSaved) => void = () => {};
    const put = vi.fn((revision: number, _scene: SceneJson, _keepalive: boolean) => new Promise<DraftSaved>((resolve) => (release = () => resolve(answer(revision + 1)))));
    const saver = new DraftSaver({ put, revision: 1 });
    saver.change(scene(1));
    await vi.advanceTimersByTimeAsync(1000);
    saver.change(scene(2));
    await vi.advanceTimersByTimeAsync(5000);
    expect(put).toHaveBeenCalledTimes(1);
    release(answer(2));
    await vi.advanceTimersByTimeAsync(1000);
    expect(put).toHaveBeenCalledTimes(2);
    expect(put.mock.calls[1]![0]).toBe(2);
    expect(put.mock.calls[1]![1].items).toHaveLength(2);
  });

  it('stops for good on a draft conflict', async () => {
    const put = vi.fn(async () => {
      throw new ApiError(409, 'draft_conflict', 'changed elsewhere');
    });
    const saver = new DraftSaver({ put, revision: 1 });
    saver.change(scene(1));
    await vi.advanceTimersByTimeAsync(1000);
    expect(saver.getSnapshot().state).toBe('conflict');
    saver.change(scene(2));
    await vi.advanceTimersByTimeAsync(3000);
    expect(put).toHaveBeenCalledTimes(1);
    expect(await saver.flush()).toBe(false);
  });

  it('reports an error and saves on retry', async () => {
    const put = vi.fn().mockRejectedValueOnce(new ApiError(0, 'network_error', 'offline')).mockResolvedValueOnce(answer(2));
    const saver = new DraftSaver({ put, revision: 1 });
    saver.change(scene(1));
    await vi.advanceTimersByTimeAsync(1000);
    expect(saver.getSnapshot().state).toBe('error');
    expect(await saver.flush()).toBe(true);
    expect(saver.getSnapshot()).toMatchObject({ state: 'saved', revision: 2 });
  });

  it('flushes at once with keepalive when the page goes', async () => {
    const put = vi.fn(async (revision: number) => answer(revision + 1));
    const saver = new DraftSaver({ put, revision: 1 });
    saver.change(scene(1));
    saver.flushNow();
    expect(put).toHaveBeenCalledWith(1, expect.anything(), true);
  });
});
