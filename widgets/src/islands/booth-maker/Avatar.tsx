/**
 * The user's newest VRM, standing at the front of the room for scale (not part of the scene),
 * loaded as the asset page's preview loads it (`loadModel`: a VRM three-vrm refuses is drawn as
 * plain glTF; only a file no loader reads is an error), freed again when hidden.
 */
import { VRMUtils, type VRM } from '@pixiv/three-vrm';
import { useThree } from '@react-three/fiber';
import { useEffect, useState } from 'react';
import type { Object3D } from 'three';
import { loadModel } from '@vmarket/viewer';
import type { Vec3 } from './types';

export interface AvatarProps {
  url: string;
  /** The home's interior `[w, h, d]`. */
  size: Vec3;
  onError(error: unknown): void;
  /** Called once the model is in the scene. */
  onShown(): void;
}

export function Avatar({ url, size, onError, onShown }: AvatarProps) {
  const [model, setModel] = useState<Object3D | null>(null);
  const invalidate = useThree((s) => s.invalidate);

  useEffect(() => {
    let gone = false;
    let vrm: VRM | undefined;
    loadModel(url).then(
      (loaded) => {
        vrm = loaded.vrm;
        if (gone) {
          if (vrm) VRMUtils.deepDispose(vrm.scene);
          return;
        }
        setModel(loaded.model);
        invalidate();
        onShown();
      },
      (err: unknown) => {
        if (!gone) onError(err);
      },
    );
    return () => {
      gone = true;
      if (vrm) VRMUtils.deepDispose(vrm.scene);
    };
  }, [url, invalidate, onError, onShown]);

  if (!model) return null;
  const [w, , d] = size;
  return <primitive object={model} position={[Math.max(w / 2 - 0.4, 0), 0, Math.max(d / 2 - 0.4, 0)]} />;
}
