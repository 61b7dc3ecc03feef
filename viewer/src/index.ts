/**
 * `@vmarket/viewer`: a GLB or VRM drawn in 3-D. {@link loadModel} reads one into a three.js
 * object (VRM through @pixiv/three-vrm); {@link mountPreview} draws it on a canvas with orbit
 * controls; {@link renderSnapshot} makes a PNG of it off screen. Import it dynamically: three.js
 * is some 800 KB, fetched only when a preview is asked for (`@vmarket/viewer/lazy` does that for
 * a component's effect).
 */
export { loadModel, type LoadedModel } from './gltf-model';
export { SNAPSHOT_SIDE, cameraDistance, mountPreview, renderSnapshot, type Preview } from './scene';
