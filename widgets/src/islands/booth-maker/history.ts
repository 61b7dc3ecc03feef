/**
 * The editor's scene state as a reducer (pure): the placed items, the selection, and a bounded
 * undo/redo history. Place, update (move, turn, scale), duplicate and delete are each one undo
 * step; a new step clears what could be redone; selecting is not a step. Callers compute the new
 * items (snapped) and hand them in, so the reducer knows nothing of geometry.
 */
import type { SceneItem } from './types';

/** Undo steps kept. */
export const HISTORY_LIMIT = 100;

export interface EditorState {
  items: SceneItem[];
  selected: number | null;
  past: SceneItem[][];
  future: SceneItem[][];
}

export type EditorAction =
  | { type: 'place'; item: SceneItem }
  | { type: 'update'; index: number; item: SceneItem }
  | { type: 'duplicate'; index: number; item: SceneItem }
  | { type: 'delete'; index: number }
  | { type: 'select'; index: number | null }
  | { type: 'undo' }
  | { type: 'redo' };

/** A fresh state holding `items`, nothing selected, no history. */
export function initialState(items: SceneItem[]): EditorState {
  return { items, selected: null, past: [], future: [] };
}

function sameItem(a: SceneItem, b: SceneItem): boolean {
  return (
    a.asset_version_id === b.asset_version_id &&
    a.sub_type === b.sub_type &&
    a.position.every((v, i) => v === b.position[i]) &&
    a.rotation.every((v, i) => v === b.rotation[i]) &&
    a.scale.every((v, i) => v === b.scale[i])
  );
}

/** `state` with `items` as a new undo step and `selected`. */
function step(state: EditorState, items: SceneItem[], selected: number | null): EditorState {
  const past = [...state.past, state.items];
  if (past.length > HISTORY_LIMIT) past.splice(0, past.length - HISTORY_LIMIT);
  return { items, selected, past, future: [] };
}

const inRange = (state: EditorState, index: number): boolean => Number.isInteger(index) && index >= 0 && index < state.items.length;

/** A selection that still names an item of `items`. */
function keep(selected: number | null, items: SceneItem[]): number | null {
  return selected !== null && selected < items.length ? selected : null;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'place':
      return step(state, [...state.items, action.item], state.items.length);
    case 'update': {
      if (!inRange(state, action.index) || sameItem(state.items[action.index]!, action.item)) return state;
      const items = state.items.map((item, i) => (i === action.index ? action.item : item));
      return step(state, items, state.selected);
    }
    case 'duplicate': {
      if (!inRange(state, action.index)) return state;
      const items = [...state.items.slice(0, action.index + 1), action.item, ...state.items.slice(action.index + 1)];
      return step(state, items, action.index + 1);
    }
    case 'delete': {
      if (!inRange(state, action.index)) return state;
      return step(state, state.items.filter((_, i) => i !== action.index), null);
    }
    case 'select':
      if (action.index !== null && !inRange(state, action.index)) return state;
      return action.index === state.selected ? state : { ...state, selected: action.index };
    case 'undo': {
      const previous = state.past[state.past.length - 1];
      if (!previous) return state;
      return { items: previous, selected: keep(state.selected, previous), past: state.past.slice(0, -1), future: [state.items, ...state.future] };
    }
    case 'redo': {
      const [next, ...future] = state.future;
      if (!next) return state;
      return { items: next, selected: keep(state.selected, next), past: [...state.past, state.items], future };
    }
  }
}
