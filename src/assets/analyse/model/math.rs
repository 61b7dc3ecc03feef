//! Just enough 4×4 matrix algebra (column-major, f64) for node world transforms.

/// A column-major 4×4 matrix.
pub type Mat4 = [f64; 16];

/// The identity.
pub const IDENTITY: Mat4 = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.];

/// `a · b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            out[col * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum();
        }
    }
    out
}

/// Translation · rotation (unit quaternion `[x, y, z, w]`) · scale.
pub fn from_trs(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Mat4 {
    let [x, y, z, w] = r.map(f64::from);
    let [sx, sy, sz] = s.map(f64::from);
    let [tx, ty, tz] = t.map(f64::from);
    [
        (1. - 2. * (y * y + z * z)) * sx,
        (2. * (x * y + z * w)) * sx,
        (2. * (x * z - y * w)) * sx,
        0.,
        (2. * (x * y - z * w)) * sy,
        (1. - 2. * (x * x + z * z)) * sy,
        (2. * (y * z + x * w)) * sy,
        0.,
        (2. * (x * z + y * w)) * sz,
        (2. * (y * z - x * w)) * sz,
        (1. - 2. * (x * x + y * y)) * sz,
        0.,
        tx,
        ty,
        tz,
        1.,
    ]
}

/// `m · (p, 1)`.
pub fn transform_point(m: &Mat4, p: [f64; 3]) -> [f64; 3] {
    let row = |r: usize| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    [row(0), row(1), row(2)]
}

/// An axis-aligned box being grown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Smallest corner so far.
    pub min: [f64; 3],
    /// Largest corner so far.
    pub max: [f64; 3],
}

impl Aabb {
    /// The box of the eight corners of `min..max` transformed by `m`.
    pub fn transformed(m: &Mat4, min: [f64; 3], max: [f64; 3]) -> Self {
        let mut out = Self { min: [f64::INFINITY; 3], max: [f64::NEG_INFINITY; 3] };
        for corner in 0..8 {
            let pick = |axis: usize| if corner >> axis & 1 == 0 { min[axis] } else { max[axis] };
            out.add(transform_point(m, [pick(0), pick(1), pick(2)]));
        }
        out
    }

    /// Grows the box to hold `p`.
    pub fn add(&mut self, p: [f64; 3]) {
        for (axis, value) in p.into_iter().enumerate() {
            self.min[axis] = self.min[axis].min(value);
            self.max[axis] = self.max[axis].max(value);
        }
    }

    /// Grows the box to hold `other`.
    pub fn union(&mut self, other: &Self) {
        self.add(other.min);
        self.add(other.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trs_rotates_then_translates() {
        // 90° about Y: +X goes to -Z.
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let m = from_trs([1., 0., 0.], [0., half, 0., half], [2., 2., 2.]);
        let p = transform_point(&m, [1., 0., 0.]);
        assert!((p[0] - 1.).abs() < 1e-6 && p[1].abs() < 1e-6 && (p[2] + 2.).abs() < 1e-6, "{p:?}");
        assert_eq!(mul(&IDENTITY, &m), m);
    }
}
