/**
 * One placed item in the 3D view: its GLB (a wire box of its own size while it loads or when it
 * cannot be drawn), a blue outline when selected, a red one when it is over a rule, and the
 * gizmo (drei `TransformControls`) on the selected item. A drag snaps as it goes and reports
 * each step (`onDrag`), so the rule check follows it; letting go commits one undo step.
 */
import { TransformControls } from '@react-three/drei';
import { useLoader, useThree, type ThreeEvent } from '@react-three/fiber';
import { Suspense, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { BoxGeometry, EdgesGeometry, type Group } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { ErrorBoundary } from './ErrorBoundary';
import { snapItem, type SnapContext } from './snap';
import type { ItemStats, Quat, SceneItem, Vec3 } from './types';

export type GizmoMode = 'translate' | 'rotate' | 'scale';

export interface ItemNodeProps {
  index: number;
  item: SceneItem;
  url: string | null;
  stats: ItemStats | null;
  ctx: SnapContext;
  selected: boolean;
  marked: boolean;
  mode: GizmoMode;
  onSelect(index: number): void;
  onDrag(index: number, item: SceneItem): void;
  onCommit(index: number, item: SceneItem): void;
  /** Called when the gizmo is pressed or let go (clicks on it are no misses). */
  onGizmo(): void;
}

const UNIT_BOX: ItemStats['box_min'][] = [
  [-0.25, 0, -0.25],
  [0.25, 0.5, 0.25],
];

/** The edges of a box from `min` to `max`, drawn in `color`. */
function Outline({ min, max, color }: { min: Vec3; max: Vec3; color: string }) {
  const geometry = useMemo(() => {
    const size = [0, 1, 2].map((a) => Math.max(max[a]! - min[a]!, 0.001));
    return new EdgesGeometry(new BoxGeometry(size[0], size[1], size[2]));
  }, [min, max]);
  const centre: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  return (
    <lineSegments geometry={geometry} position={centre} renderOrder={1}>
      <lineBasicMaterial color={color} depthTest={false} transparent />
    </lineSegments>
  );
}

function Model({ url }: { url: string }) {
  const gltf = useLoader(GLTFLoader, url);
  const scene = useMemo(() => gltf.scene.clone(true), [gltf]);
  return <primitive object={scene} />;
}

export function ItemNode(props: ItemNodeProps) {
  const { index, item, url, stats, ctx, selected, marked, mode } = props;
  const [group, setGroup] = useState<Group | null>(null);
  const dragged = useRef<SceneItem | null>(null);
  const invalidate = useThree((s) => s.invalidate);
  const [min, max] = stats ? [stats.box_min, stats.box_max] : (UNIT_BOX as [Vec3, Vec3]);

  useLayoutEffect(() => {
    if (!group) return;
    group.position.fromArray(item.position);
    group.quaternion.fromArray(item.rotation);
    group.scale.fromArray(item.scale);
    invalidate();
  }, [group, item, invalidate]);

  const change = (): void => {
    if (!group || !stats) return;
    const raw: SceneItem = {
      ...item,
      position: group.position.toArray() as Vec3,
      rotation: group.quaternion.toArray() as Quat,
      scale: group.scale.toArray() as Vec3,
    };
    const snapped = snapItem(raw, stats, ctx);
    group.position.fromArray(snapped.position);
    group.quaternion.fromArray(snapped.rotation);
    group.scale.fromArray(snapped.scale);
    dragged.current = snapped;
    props.onDrag(index, snapped);
  };
  const release = (): void => {
    props.onGizmo();
    const done = dragged.current;
    dragged.current = null;
    if (done) props.onCommit(index, done);
  };
  const click = (e: ThreeEvent<MouseEvent>): void => {
    if (e.delta > 2) return;
    e.stopPropagation();
    props.onSelect(index);
  };

  const placeholder = <Outline min={min} max={max} color="#8a93a8" />;
  return (
    <>
      <group ref={setGroup} onClick={click}>
        {url ? (
          <ErrorBoundary fallback={placeholder}>
            <Suspense fallback={placeholder}>
              <Model url={url} />
            </Suspense>
          </ErrorBoundary>
        ) : (
          placeholder
        )}
        {marked && <Outline min={min} max={max} color="#e0245e" />}
        {selected && !marked && <Outline min={min} max={max} color="#3056d3" />}
      </group>
      {selected && group && stats && (
        <TransformControls
          object={group}
          mode={mode}
          size={0.8}
          onMouseDown={() => props.onGizmo()}
          onObjectChange={change}
          onMouseUp={release}
        />
      )}
    </>
  );
}
