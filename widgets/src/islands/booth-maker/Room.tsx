/**
 * The preset home: its GLB, or, while it loads or when it cannot be drawn, plain planes for the
 * floor and the three walls of its interior (`size = [w, h, d]`; the front is open).
 */
import { useLoader } from '@react-three/fiber';
import { Suspense, useMemo } from 'react';
import { DoubleSide } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { ErrorBoundary } from './ErrorBoundary';
import type { Vec3 } from './types';

function PlainRoom({ size }: { size: Vec3 }) {
  const [w, h, d] = size;
  const wall = <meshStandardMaterial color="#e8ebf3" side={DoubleSide} />;
  return (
    <group>
      <mesh rotation={[-Math.PI / 2, 0, 0]}>
        <planeGeometry args={[w, d]} />
        <meshStandardMaterial color="#d5d9e4" side={DoubleSide} />
      </mesh>
      <mesh position={[0, h / 2, -d / 2]}>
        <planeGeometry args={[w, h]} />
        {wall}
      </mesh>
      <mesh position={[-w / 2, h / 2, 0]} rotation={[0, Math.PI / 2, 0]}>
        <planeGeometry args={[d, h]} />
        {wall}
      </mesh>
      <mesh position={[w / 2, h / 2, 0]} rotation={[0, -Math.PI / 2, 0]}>
        <planeGeometry args={[d, h]} />
        {wall}
      </mesh>
    </group>
  );
}

function RoomModel({ url }: { url: string }) {
  const gltf = useLoader(GLTFLoader, url);
  const scene = useMemo(() => gltf.scene.clone(true), [gltf]);
  return <primitive object={scene} />;
}

export function Room({ url, size }: { url: string; size: Vec3 }) {
  const plain = <PlainRoom size={size} />;
  return (
    <ErrorBoundary fallback={plain}>
      <Suspense fallback={plain}>
        <RoomModel url={url} />
      </Suspense>
    </ErrorBoundary>
  );
}
