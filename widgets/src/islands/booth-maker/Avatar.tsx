/**
 * The user's newest VRM, standing at the front of the room for scale (not part of the scene):
 * loaded through GLTFLoader with @pixiv/three-vrm's plugin, VRM 0.x turned to face the room's
 * front like VRM 1.0, freed again when hidden. A VRM the plugin refuses (a humanoid without
 * every required bone, say) is still a glTF model and is drawn as one, as the asset page's
 * preview does; only a file no loader reads is an error.
 */
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { useThree } from '@react-three/fiber';
import { useEffect, useState } from 'react';
import type { Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
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
    const loader = new GLTFLoader();
    loader.register((parser) => new VRMLoaderPlugin(parser));
    loader
      .loadAsync(url)
      .catch((vrmError: unknown) => {
        console.warn('[vmarket] avatar drawn as plain glTF:', vrmError);
        return new GLTFLoader().loadAsync(url);
      })
      .then(
        (gltf) => {
          vrm = gltf.userData.vrm as VRM | undefined;
          if (vrm) VRMUtils.rotateVRM0(vrm);
          const scene = vrm ? vrm.scene : gltf.scene;
          if (gone) {
            if (vrm) VRMUtils.deepDispose(vrm.scene);
            return;
          }
          setModel(scene);
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
