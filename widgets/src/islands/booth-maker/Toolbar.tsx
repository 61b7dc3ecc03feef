/**
 * Every editing action as a button (each keyboard shortcut has one): undo, redo, duplicate,
 * delete, deselect, the gizmo's mode, a pad that moves the selected item, turns and scales it
 * (usable on a phone), the avatar toggle, and the selected item's position readout.
 */
import { useT } from '../../i18n-react';
import { fixed, positionText } from './format';
import type { GizmoMode } from './ItemNode';
import type { Command } from './keys';
import type { SceneItem } from './types';

export interface ToolbarProps {
  canUndo: boolean;
  canRedo: boolean;
  canDuplicate: boolean;
  selected: SceneItem | null;
  selectedName: string | null;
  mode: GizmoMode;
  onMode(mode: GizmoMode): void;
  run(command: Command): void;
}

const MODES: GizmoMode[] = ['translate', 'rotate', 'scale'];

export function Toolbar({ canUndo, canRedo, canDuplicate, selected, selectedName, mode, onMode, run }: ToolbarProps) {
  const t = useT();
  const none = selected === null;
  const wall = selected?.sub_type === 'wall';
  const button = (testid: string, label: string, command: Command, disabled: boolean, extra = '') => (
    <button type="button" className={`button ${extra}`} data-testid={testid} disabled={disabled} onClick={() => run(command)}>
      {label}
    </button>
  );
  return (
    <div className="booth-maker__tools">
      <div className="booth-maker__toolbar" role="toolbar" aria-label={t('booth_maker.editor.toolbar')}>
        {button('undo', t('booth_maker.editor.undo'), { kind: 'undo' }, !canUndo)}
        {button('redo', t('booth_maker.editor.redo'), { kind: 'redo' }, !canRedo)}
        {button('duplicate', t('booth_maker.editor.duplicate'), { kind: 'duplicate' }, none || !canDuplicate)}
        {button('delete', t('booth_maker.editor.delete'), { kind: 'delete' }, none)}
        {button('deselect', t('booth_maker.editor.deselect'), { kind: 'deselect' }, none)}
      </div>
      <div className="booth-maker__toolbar" role="group" aria-label={t('booth_maker.editor.gizmo_mode')}>
        {MODES.map((m) => (
          <button key={m} type="button" className="button" aria-pressed={mode === m} data-testid={`mode-${m}`} onClick={() => onMode(m)}>
            {t(`booth_maker.editor.mode.${m}`)}
          </button>
        ))}
      </div>
      {selected && (
        <div className="booth-maker__selected">
          <p>
            {t('booth_maker.editor.selected', { name: selectedName ?? '' })}{' '}
            <output
              data-testid="selected-position"
              data-x={fixed(selected.position[0], 3)}
              data-y={fixed(selected.position[1], 3)}
              data-z={fixed(selected.position[2], 3)}
            >
              {positionText(selected.position)}
            </output>
          </p>
          <div className="booth-maker__pad" role="group" aria-label={t('booth_maker.editor.move_pad')}>
            {button('move-up', t(wall ? 'booth_maker.editor.move_up' : 'booth_maker.editor.move_back'), { kind: 'nudge', right: 0, up: 1, fine: false }, false, 'booth-maker__pad-up')}
            {button('move-left', t('booth_maker.editor.move_left'), { kind: 'nudge', right: -1, up: 0, fine: false }, false, 'booth-maker__pad-left')}
            {button('move-right', t('booth_maker.editor.move_right'), { kind: 'nudge', right: 1, up: 0, fine: false }, false, 'booth-maker__pad-right')}
            {button('move-down', t(wall ? 'booth_maker.editor.move_down' : 'booth_maker.editor.move_front'), { kind: 'nudge', right: 0, up: -1, fine: false }, false, 'booth-maker__pad-down')}
          </div>
          <div className="booth-maker__toolbar" role="group" aria-label={t('booth_maker.editor.turn_and_scale')}>
            {button('turn-left', t('booth_maker.editor.turn_left'), { kind: 'turn', degrees: 15 }, false)}
            {button('turn-right', t('booth_maker.editor.turn_right'), { kind: 'turn', degrees: -15 }, false)}
            {button('scale-up', t('booth_maker.editor.scale_up'), { kind: 'scale', up: true }, false)}
            {button('scale-down', t('booth_maker.editor.scale_down'), { kind: 'scale', up: false }, false)}
          </div>
        </div>
      )}
    </div>
  );
}
