/**
 * The loaded editor: the 3D view (lazy, its own chunk) with its keyboard region, the toolbar,
 * and the panels (save, rule check, placed items, palette, submission). Keys act while focus is
 * anywhere in the editor but a form field; the view's frame is the focusable region.
 */
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import type { BoothClient } from './client';
import type { GizmoMode } from './ItemNode';
import { commandFor } from './keys';
import { Palette } from './Palette';
import { PlacedList } from './PlacedList';
import { RuleCheck } from './RuleCheck';
import { SavePanel } from './SavePanel';
import { SubmitPanel } from './SubmitPanel';
import { Toolbar } from './Toolbar';
import type { EditorView, SceneSaved } from './types';
import { useBooth } from './useBooth';

const Viewport = lazy(() => import('./Viewport'));

export interface EditorProps {
  lang: Lang;
  view: EditorView;
  client: BoothClient;
}

function isField(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName));
}

export function Editor({ lang, view, client }: EditorProps) {
  const t = useT();
  const booth = useBooth(view, client);
  const { state, items } = booth;
  const [mode, setMode] = useState<GizmoMode>('translate');
  const [showAvatar, setShowAvatar] = useState(false);
  /** What became of the avatar once asked for: drawn, or failed (said beside the toggle). */
  const [avatarState, setAvatarState] = useState<'none' | 'shown' | 'failed'>('none');
  const frame = useRef<HTMLDivElement>(null);
  const names = useMemo(() => new Map(view.palette.map((p) => [p.asset_version_id, p.name])), [view.palette]);
  const urls = useMemo(() => new Map(view.palette.map((p) => [p.asset_version_id, p.url])), [view.palette]);
  const full = state.items.length >= view.limits.max_items ? t('booth_maker.editor.max_items', { n: view.limits.max_items }) : null;
  const selected = state.selected === null ? null : (items[state.selected] ?? null);

  const keyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.defaultPrevented || isField(e.target)) return;
    const command = commandFor(e);
    if (command && booth.run(command)) e.preventDefault();
  };
  const onSaved = (result: SceneSaved): void => booth.serverChecked(state.items, result.totals, result.findings);
  const onAvatarError = useCallback(() => setAvatarState('failed'), []);
  const onAvatarShown = useCallback(() => setAvatarState('shown'), []);

  return (
    <div className="booth-maker__editor" onKeyDown={keyDown}>
      <div className="booth-maker__main">
        <div className="booth-maker__view">
          <div
            ref={frame}
            className="booth-maker__frame"
            tabIndex={0}
            data-testid="editor-keys"
            aria-label={t('booth_maker.editor.view_region')}
            aria-describedby="booth-keys-help"
            onPointerDown={() => frame.current?.focus({ preventScroll: true })}
          >
            <Suspense fallback={<p className="booth-maker__note">{t('booth_maker.editor.loading_view')}</p>}>
              <Viewport
                home={view.home}
                items={items}
                urls={urls}
                stats={booth.stats}
                ctx={booth.ctx}
                selected={state.selected}
                marked={booth.marked}
                mode={mode}
                avatarUrl={showAvatar && view.avatar ? view.avatar.url : null}
                label={t('booth_maker.editor.canvas_label', { home: view.home.name, n: items.length })}
                onSelect={booth.select}
                onDrag={booth.drag}
                onCommit={booth.commit}
                onAvatarError={onAvatarError}
                onAvatarShown={onAvatarShown}
              />
            </Suspense>
          </div>
          <p id="booth-keys-help" className="booth-maker__note">
            {t('booth_maker.editor.keys_help')}
          </p>
          <Toolbar
            canUndo={state.past.length > 0}
            canRedo={state.future.length > 0}
            canDuplicate={full === null}
            selected={selected}
            selectedName={selected ? (names.get(selected.asset_version_id) ?? null) : null}
            mode={mode}
            onMode={setMode}
            run={booth.run}
          />
          {view.avatar && (
            <label className="booth-maker__field booth-maker__field--inline">
              <input type="checkbox" checked={showAvatar} onChange={(e) => setShowAvatar(e.target.checked)} data-testid="show-avatar" data-avatar-state={showAvatar ? avatarState : 'none'} />
              <span>{t('booth_maker.editor.show_avatar', { name: view.avatar.name })}</span>
            </label>
          )}
          {avatarState === 'failed' && showAvatar && <p className="booth-maker__warn">{t('booth_maker.editor.avatar_failed')}</p>}
        </div>
        <div className="booth-maker__panels">
          <SavePanel lang={lang} saver={booth.saver} save={booth.save} client={client} scene={view.scene} onSaved={onSaved} />
          <RuleCheck rules={view.rules} check={booth.check} lang={lang} />
          <PlacedList items={items} names={names} selected={state.selected} marked={booth.marked} onSelect={booth.select} />
          <Palette palette={view.palette} full={full} onPlace={booth.place} />
          <SubmitPanel lang={lang} slots={view.slots} saver={booth.saver} client={client} over={booth.check.findings.length > 0} />
        </div>
      </div>
    </div>
  );
}
