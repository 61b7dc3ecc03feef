/**
 * The editor's state in one hook: the scene reducer with its history, the in-progress drag
 * (so that totals and the rule check follow the gizmo live), the autosave, the derived totals,
 * findings and highlighted items, and {@link BoothEditor.run} for every keyboard or button
 * command.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import { DraftSaver } from './autosave';
import type { BoothClient } from './client';
import { editorReducer, initialState, type EditorState } from './history';
import type { Command } from './keys';
import { duplicateOf, FINE_STEP, nudge, rescale, SCALE_STEP, STEP, turn } from './moves';
import { placeNew, type SnapContext } from './snap';
import { checkRules, computeTotals, highlight, type StatsMap } from './totals';
import type { EditorView, Finding, PaletteItem, SceneItem, SceneJson, Totals } from './types';

/** A check's figures and where they come from (the server's answer wins for the scene it saw). */
export interface Check {
  totals: Totals;
  findings: Finding[];
  source: 'live' | 'server';
  /** Whether the server's figures differ from the editor's own. */
  differs: boolean;
}

export interface BoothEditor {
  state: EditorState;
  /** The items as shown: with the dragged one where the gizmo has it. */
  items: SceneItem[];
  stats: StatsMap;
  ctx: SnapContext;
  check: Check;
  /** Indices of the items to mark red. */
  marked: ReadonlySet<number>;
  saver: DraftSaver;
  save: ReturnType<DraftSaver['getSnapshot']>;
  run(command: Command): boolean;
  place(entry: PaletteItem): void;
  select(index: number | null): void;
  drag(index: number, item: SceneItem): void;
  commit(index: number, item: SceneItem): void;
  /** Remembers the server's figures for the scene it checked (a save's answer). */
  serverChecked(items: SceneItem[], totals: Totals, findings: Finding[]): void;
}

function sameCheck(a: Totals, b: Totals, fa: Finding[], fb: Finding[]): boolean {
  const near = (x: number, y: number): boolean => Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x));
  return (
    a.items === b.items &&
    a.triangles === b.triangles &&
    a.materials === b.materials &&
    a.texture_memory === b.texture_memory &&
    a.bytes === b.bytes &&
    a.box.every((v, i) => near(v, b.box[i]!)) &&
    fa.map((f) => f.rule_id).join() === fb.map((f) => f.rule_id).join()
  );
}

export function useBooth(view: EditorView, client: BoothClient): BoothEditor {
  const [state, dispatch] = useReducer(editorReducer, view.draft.scene.items, initialState);
  const [live, setLive] = useState<{ index: number; item: SceneItem } | null>(null);
  const [server, setServer] = useState<{ items: SceneItem[]; totals: Totals; findings: Finding[] } | null>(null);
  const stats = useMemo<StatsMap>(() => new Map(view.palette.map((p) => [p.asset_version_id, p.stats])), [view.palette]);
  const ctx = useMemo<SnapContext>(() => ({ size: view.home.size, limits: view.limits }), [view.home.size, view.limits]);

  const serverChecked = useCallback((items: SceneItem[], totals: Totals, findings: Finding[]) => {
    setServer({ items, totals, findings });
  }, []);
  const [saver] = useState(
    () =>
      new DraftSaver({
        revision: view.draft.revision,
        put: (revision, scene, keepalive) => client.putDraft(revision, scene, keepalive),
        onSaved: (result, scene) => serverChecked(scene.items, result.totals, result.findings),
      }),
  );
  const save = useSyncExternalStore(saver.subscribe, saver.getSnapshot);
  useEffect(() => () => saver.dispose(), [saver]);

  const first = useRef(state.items);
  useEffect(() => {
    if (state.items === first.current) return;
    const scene: SceneJson = { version: 1, home: view.draft.scene.home, items: state.items };
    saver.change(scene);
  }, [state.items, saver, view.draft.scene.home]);

  useEffect(() => {
    const hidden = (): void => {
      if (document.visibilityState === 'hidden') saver.flushNow();
    };
    const gone = (): void => saver.flushNow();
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', gone);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', gone);
    };
  }, [saver]);

  const items = useMemo(
    () => (live && live.index < state.items.length ? state.items.map((item, i) => (i === live.index ? live.item : item)) : state.items),
    [live, state.items],
  );
  const liveTotals = useMemo(() => computeTotals(items, stats), [items, stats]);
  const liveFindings = useMemo(() => checkRules(liveTotals, view.rules), [liveTotals, view.rules]);
  const marked = useMemo(() => new Set([...highlight(items, stats, view.rules).values()].flat()), [items, stats, view.rules]);
  const check = useMemo<Check>(() => {
    if (server && server.items === items) {
      return { totals: server.totals, findings: server.findings, source: 'server', differs: !sameCheck(server.totals, liveTotals, server.findings, liveFindings) };
    }
    return { totals: liveTotals, findings: liveFindings, source: 'live', differs: false };
  }, [server, items, liveTotals, liveFindings]);

  const select = useCallback((index: number | null) => dispatch({ type: 'select', index }), []);
  const drag = useCallback((index: number, item: SceneItem) => setLive({ index, item }), []);
  const commit = useCallback((index: number, item: SceneItem) => {
    setLive(null);
    dispatch({ type: 'update', index, item });
  }, []);
  const place = useCallback(
    (entry: PaletteItem) => {
      if (state.items.length >= view.limits.max_items) return;
      dispatch({ type: 'place', item: placeNew(entry, state.items, ctx) });
    },
    [state.items, view.limits.max_items, ctx],
  );

  const run = useCallback(
    (command: Command): boolean => {
      if (command.kind === 'undo') {
        dispatch({ type: 'undo' });
        return true;
      }
      if (command.kind === 'redo') {
        dispatch({ type: 'redo' });
        return true;
      }
      const index = state.selected;
      if (index === null) return false;
      if (command.kind === 'deselect') {
        dispatch({ type: 'select', index: null });
        return true;
      }
      if (command.kind === 'delete') {
        dispatch({ type: 'delete', index });
        return true;
      }
      const item = state.items[index];
      const itemStats = item && stats.get(item.asset_version_id);
      if (!item || !itemStats) return false;
      switch (command.kind) {
        case 'duplicate':
          if (state.items.length >= view.limits.max_items) return false;
          dispatch({ type: 'duplicate', index, item: duplicateOf(item, itemStats, ctx) });
          return true;
        case 'nudge':
          dispatch({ type: 'update', index, item: nudge(item, itemStats, command.right, command.up, command.fine ? FINE_STEP : STEP, ctx) });
          return true;
        case 'turn':
          dispatch({ type: 'update', index, item: turn(item, itemStats, command.degrees, ctx) });
          return true;
        case 'scale':
          dispatch({ type: 'update', index, item: rescale(item, itemStats, command.up ? SCALE_STEP : 1 / SCALE_STEP, ctx) });
          return true;
      }
    },
    [state.items, state.selected, stats, ctx, view.limits.max_items],
  );

  return { state, items, stats, ctx, check, marked, saver, save, run, place, select, drag, commit, serverChecked };
}
