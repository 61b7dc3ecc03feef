import { describe, expect, it } from 'vitest';
import { item } from './fixtures.test-helpers';
import { editorReducer, HISTORY_LIMIT, initialState, type EditorAction, type EditorState } from './history';

const a = item(1, 'floor', [0, 0, 0]);
const b = item(2, 'wall', [0, 1.5, -0.95]);
const run = (state: EditorState, ...actions: EditorAction[]): EditorState => actions.reduce(editorReducer, state);

describe('editorReducer', () => {
  it('places, selects the new item, and undoes and redoes it', () => {
    const placed = run(initialState([]), { type: 'place', item: a });
    expect(placed.items).toEqual([a]);
    expect(placed.selected).toBe(0);
    const undone = run(placed, { type: 'undo' });
    expect(undone.items).toEqual([]);
    expect(undone.selected).toBeNull();
    expect(run(undone, { type: 'redo' }).items).toEqual([a]);
  });

  it('undoes a move, and a no-op update is no step', () => {
    const moved = { ...a, position: [0.5, 0, 0] as [number, number, number] };
    const s = run(initialState([a]), { type: 'update', index: 0, item: moved });
    expect(s.items[0]!.position).toEqual([0.5, 0, 0]);
    expect(s.past).toHaveLength(1);
    expect(run(s, { type: 'update', index: 0, item: { ...moved } }).past).toHaveLength(1);
    expect(run(s, { type: 'undo' }).items[0]!.position).toEqual([0, 0, 0]);
  });

  it('duplicates after the original and selects the copy; undo removes it', () => {
    const copy = { ...a, position: [0.2, 0, 0] as [number, number, number] };
    const s = run(initialState([a, b]), { type: 'duplicate', index: 0, item: copy });
    expect(s.items).toEqual([a, copy, b]);
    expect(s.selected).toBe(1);
    expect(run(s, { type: 'undo' }).items).toEqual([a, b]);
  });

  it('deletes and brings back, keeping a selection only while it is in range', () => {
    const s = run(initialState([a, b]), { type: 'select', index: 1 }, { type: 'delete', index: 1 });
    expect(s.items).toEqual([a]);
    expect(s.selected).toBeNull();
    const back = run(s, { type: 'undo' });
    expect(back.items).toEqual([a, b]);
    const selected = run(back, { type: 'select', index: 1 }, { type: 'redo' });
    expect(selected.items).toEqual([a]);
    expect(selected.selected).toBeNull();
  });

  it('clears what could be redone when a new step comes', () => {
    const s = run(initialState([]), { type: 'place', item: a }, { type: 'place', item: b }, { type: 'undo' });
    expect(s.future).toHaveLength(1);
    const after = run(s, { type: 'delete', index: 0 });
    expect(after.future).toEqual([]);
    expect(run(after, { type: 'redo' })).toBe(after);
  });

  it('keeps at most HISTORY_LIMIT steps', () => {
    let s = initialState([a]);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i += 1) s = editorReducer(s, { type: 'update', index: 0, item: { ...a, position: [i / 1000, 0, 0] } });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    for (let i = 0; i < HISTORY_LIMIT + 5; i += 1) s = editorReducer(s, { type: 'undo' });
    expect(s.items[0]!.position[0]).toBeCloseTo(20 / 1000, 9);
  });

  it('ignores out-of-range indices and selecting is not a step', () => {
    const s = initialState([a]);
    expect(run(s, { type: 'delete', index: 3 })).toBe(s);
    expect(run(s, { type: 'select', index: 5 })).toBe(s);
    expect(run(s, { type: 'select', index: 0 }).past).toEqual([]);
  });
});
