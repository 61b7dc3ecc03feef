/**
 * The preview's three.js side: a lit scene, a GLB or VRM (`loadModel`: VRM 0.x and 1.0 through
 * @pixiv/three-vrm's plugin, a VRM the plugin refuses drawn as plain glTF), the camera fitted to
 * the model's box, orbit controls (mouse, touch and the arrow keys), and a PNG of the first frame
 * for the version's snapshot. Rendered on demand: a frame per change, none while idle.
 */
import { VRMUtils } from '@pixiv/three-vrm';
import {
  Box3,
  Color,
  DirectionalLight,
  HemisphereLight,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { loadModel } from './gltf-model';

/** A mounted preview. */
export interface Preview {
  /** The first frame as PNG. */
  snapshot(): Promise<Blob | null>;
  /** The model's size in metres (x, y, z). */
  size: [number, number, number];
  dispose(): void;
}

/** Where the camera goes to see a box of `size` centred on the origin, at `fov` degrees. */
export function cameraDistance(size: [number, number, number], fov: number): number {
  const radius = Math.max(Math.hypot(...size) / 2, 0.01);
  return (radius / Math.sin((fov * Math.PI) / 360)) * 1.1;
}

/** Loads `url` into a new scene drawn on `canvas`. Rejects when WebGL or the file fails. */
export async function mountPreview(canvas: HTMLCanvasElement, url: string, keys: HTMLElement): Promise<Preview> {
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  const scene = new Scene();
  scene.background = new Color(0xf3f5fa);
  scene.add(new HemisphereLight(0xffffff, 0x8890a0, 2));
  const sun = new DirectionalLight(0xffffff, 2);
  sun.position.set(1, 2, 1.5);
  scene.add(sun);

  let loaded;
  try {
    loaded = await loadModel(url);
  } catch (err) {
    renderer.dispose();
    throw err;
  }
  const { model, vrm } = loaded;
  scene.add(model);

  const box = new Box3().setFromObject(model);
  const centre = box.getCenter(new Vector3());
  const extent = box.getSize(new Vector3());
  const size: [number, number, number] = [extent.x, extent.y, extent.z];
  const camera = new PerspectiveCamera(35, 1, 0.01, 1000);
  const distance = cameraDistance(size, camera.fov);
  camera.position.set(centre.x + distance * 0.35, centre.y + distance * 0.2, centre.z + distance);
  camera.near = distance / 100;
  camera.far = distance * 100;

  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(centre);
  controls.listenToKeyEvents(keys);
  const draw = (): void => renderer.render(scene, camera);
  const resize = (): void => {
    const width = canvas.clientWidth || 320;
    const height = canvas.clientHeight || 320;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    draw();
  };
  controls.addEventListener('change', draw);
  controls.update();
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);
  resize();

  return {
    size,
    snapshot: () =>
      new Promise((resolve) => {
        draw();
        canvas.toBlob((blob) => resolve(blob), 'image/png');
      }),
    dispose: () => {
      observer.disconnect();
      controls.dispose();
      if (vrm) VRMUtils.deepDispose(vrm.scene);
      renderer.dispose();
    },
  };
}

/** The side of a snapshot, in pixels (the server makes its 640 px picture from it). */
export const SNAPSHOT_SIDE = 640;

/**
 * Draws the model at `url` once, off screen, and answers the frame as PNG: the snapshot the
 * upload page sends with a 3D file (from the file itself, before the server has it all).
 */
export async function renderSnapshot(url: string): Promise<Blob | null> {
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = `position:fixed;left:-${SNAPSHOT_SIDE * 2}px;top:0;width:${SNAPSHOT_SIDE}px;height:${SNAPSHOT_SIDE}px;`;
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'width:100%;height:100%;display:block;';
  holder.appendChild(canvas);
  document.body.appendChild(holder);
  try {
    const preview = await mountPreview(canvas, url, holder);
    try {
      return await preview.snapshot();
    } finally {
      preview.dispose();
    }
  } finally {
    holder.remove();
  }
}
