/**
 * The editor's keyboard map (pure): a key press to a command, or null to leave the key to the
 * browser and the page. Plain keys act only without Ctrl, Cmd or Alt, so the browser's own
 * shortcuts (Ctrl/Cmd + "+" zoom, Alt + arrows) keep working.
 */

/** What a key (or its button) asks the editor to do. */
export type Command =
  | { kind: 'nudge'; right: number; up: number; fine: boolean }
  | { kind: 'turn'; degrees: number }
  | { kind: 'scale'; up: boolean }
  | { kind: 'delete' }
  | { kind: 'duplicate' }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'deselect' };

/** The parts of a KeyboardEvent the map reads. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const ARROWS: Readonly<Record<string, [number, number]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
};

/** The command for `press`, or null. */
export function commandFor(press: KeyPress): Command | null {
  const key = press.key;
  const mod = press.ctrlKey || press.metaKey;
  if (press.altKey) return null;
  if (mod) {
    const lower = key.toLowerCase();
    if (lower === 'z') return press.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
    if (lower === 'y' && !press.shiftKey) return { kind: 'redo' };
    if (lower === 'd' && !press.shiftKey) return { kind: 'duplicate' };
    return null;
  }
  const arrow = ARROWS[key];
  if (arrow) return { kind: 'nudge', right: arrow[0], up: arrow[1], fine: press.shiftKey };
  switch (key) {
    case 'q':
    case 'Q':
      return { kind: 'turn', degrees: 15 };
    case 'e':
    case 'E':
      return { kind: 'turn', degrees: -15 };
    case '+':
    case '=':
    case 'Add':
      return { kind: 'scale', up: true };
    case '-':
    case '_':
    case 'Subtract':
      return { kind: 'scale', up: false };
    case 'Delete':
    case 'Backspace':
      return { kind: 'delete' };
    case 'Escape':
      return { kind: 'deselect' };
    default:
      return null;
  }
}
