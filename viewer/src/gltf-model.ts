/**
 * A GLB or VRM loaded for drawing (the asset page's preview, the booth maker's avatar): through
 * GLTFLoader with @pixiv/three-vrm's plugin, VRM 0.x turned to face the way VRM 1.0 does. A VRM
 * the plugin refuses (a humanoid without every required bone, say) is still a glTF model and is
 * loaded again as one, without the VRM's own handling — the asset's report is the judge of the
 * file. Rejects only when no loader reads it.
 */
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import type { Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** What {@link loadModel} gives. */
export interface LoadedModel {
  /** The scene to add. */
  model: Object3D;
  /** The VRM, when the plugin read one (free it with `VRMUtils.deepDispose(vrm.scene)`). */
  vrm?: VRM;
}

/** Loads `url` as described above. */
export async function loadModel(url: string): Promise<LoadedModel> {
  const vrmLoader = new GLTFLoader();
  vrmLoader.register((parser) => new VRMLoaderPlugin(parser));
  let gltf;
  try {
    gltf = await vrmLoader.loadAsync(url);
  } catch (vrmError) {
    gltf = await new GLTFLoader().loadAsync(url);
    console.warn('[vmarket] drawn as plain glTF:', vrmError);
  }
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) return { model: gltf.scene };
  VRMUtils.rotateVRM0(vrm);
  return { model: vrm.scene, vrm };
}
