/**
 * The booth maker's 3D view (its own chunk, loaded after the panels): an on-demand R3F canvas
 * with the room, the placed items, the gizmo, orbit controls (mouse, touch), the avatar for
 * scale when asked for, and a progress bar while models load (drei `useProgress`).
 */
import { OrbitControls, useProgress } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { useRef } from 'react';
import { useT } from '../../i18n-react';
import { Avatar } from './Avatar';
import { ItemNode, type GizmoMode } from './ItemNode';
import { Room } from './Room';
import type { SnapContext } from './snap';
import type { StatsMap } from './totals';
import type { Home, SceneItem } from './types';

export interface ViewportProps {
  home: Home;
  items: SceneItem[];
  urls: ReadonlyMap<number, string>;
  stats: StatsMap;
  ctx: SnapContext;
  selected: number | null;
  marked: ReadonlySet<number>;
  mode: GizmoMode;
  avatarUrl: string | null;
  /** The canvas's text alternative. */
  label: string;
  onSelect(index: number | null): void;
  onDrag(index: number, item: SceneItem): void;
  onCommit(index: number, item: SceneItem): void;
  onAvatarError(error: unknown): void;
  /** Called once the avatar is drawn. */
  onAvatarShown(): void;
}

/** How long after a gizmo press a click on nothing still does not deselect (ms). */
const GIZMO_GRACE_MS = 400;

function Progress() {
  const t = useT();
  const { active, progress } = useProgress();
  const percent = Math.round(progress);
  return (
    <div className="booth-maker__progress" role="status" data-testid="asset-progress" data-state={active ? 'loading' : 'ready'}>
      {active && (
        <>
          <progress max={100} value={percent} aria-label={t('booth_maker.editor.loading_models')} />
          <span>{t('booth_maker.editor.loading_percent', { percent })}</span>
        </>
      )}
    </div>
  );
}

export default function Viewport(props: ViewportProps) {
  const { home, items, selected } = props;
  const [w, h, d] = home.size;
  const gizmoAt = useRef(0);
  const onGizmo = (): void => {
    gizmoAt.current = Date.now();
  };
  const missed = (): void => {
    if (Date.now() - gizmoAt.current > GIZMO_GRACE_MS) props.onSelect(null);
  };
  const reach = Math.max(w, d, h);
  return (
    <>
      <Canvas
        className="booth-maker__canvas"
        frameloop="demand"
        dpr={[1, 2]}
        camera={{ position: [0, h * 0.9, d / 2 + reach * 1.2], fov: 45, near: 0.01, far: reach * 50 }}
        onPointerMissed={missed}
        role="img"
        aria-label={props.label}
      >
        <color attach="background" args={['#f3f5fa']} />
        <hemisphereLight args={['#ffffff', '#8890a0', 2]} />
        <directionalLight position={[w, h * 2, d * 1.5]} intensity={2} />
        <Room url={home.scene_url} size={home.size} />
        {items.map((item, index) => (
          <ItemNode
            key={index}
            index={index}
            item={item}
            url={props.urls.get(item.asset_version_id) ?? null}
            stats={props.stats.get(item.asset_version_id) ?? null}
            ctx={props.ctx}
            selected={selected === index}
            marked={props.marked.has(index)}
            mode={props.mode}
            onSelect={props.onSelect}
            onDrag={props.onDrag}
            onCommit={props.onCommit}
            onGizmo={onGizmo}
          />
        ))}
        {props.avatarUrl && <Avatar url={props.avatarUrl} size={home.size} onError={props.onAvatarError} onShown={props.onAvatarShown} />}
        <OrbitControls makeDefault target={[0, h * 0.35, 0]} maxDistance={reach * 10} />
      </Canvas>
      <Progress />
    </>
  );
}
