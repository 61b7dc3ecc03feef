/**
 * The little vector and quaternion arithmetic the pure modules share (no three.js, so that the
 * geometry matches the server's line for line). Quaternions are `[x, y, z, w]`.
 */
import type { Quat, Vec3 } from './types';

export const IDENTITY: Quat = [0, 0, 0, 1];
export const DEG = Math.PI / 180;

/** `q` applied to `v`. */
export function rotate(q: Quat, v: Vec3): Vec3 {
  const [x, y, z, w] = q;
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** `a * b`: `b` first, then `a`. */
export function multiply(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** The inverse of a unit quaternion. */
export function conjugate(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

/** `q` scaled to length 1; the identity when it has no length or is not finite. */
export function normalize(q: Quat): Quat {
  const length = Math.hypot(...q);
  if (!Number.isFinite(length) || length < 1e-9) return [...IDENTITY];
  return [q[0] / length, q[1] / length, q[2] / length, q[3] / length];
}

/** A turn of `radians` about the Y axis. */
export function yawQuat(radians: number): Quat {
  return [0, Math.sin(radians / 2), 0, Math.cos(radians / 2)];
}

/** A turn of `radians` about the Z axis. */
export function rollQuat(radians: number): Quat {
  return [0, 0, Math.sin(radians / 2), Math.cos(radians / 2)];
}

/** The part of `q` that turns about `axis` (0 = X, 1 = Y, 2 = Z): its twist. */
export function twist(q: Quat, axis: 0 | 1 | 2): Quat {
  const t: Quat = [0, 0, 0, q[3]];
  t[axis] = q[axis];
  return normalize(t);
}

/** The 8 corners of the box `min`..`max`. */
export function corners(min: Vec3, max: Vec3): Vec3[] {
  const out: Vec3[] = [];
  for (const x of [min[0], max[0]]) for (const y of [min[1], max[1]]) for (const z of [min[2], max[2]]) out.push([x, y, z]);
  return out;
}

/** `v` clamped into `[lo, hi]`. */
export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
