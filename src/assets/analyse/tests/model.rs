//! The glTF/GLB/VRM analyser over generated samples.

use super::super::samples::{self, ModelSpec};
use super::super::{Kind, Limits, Stats, analyse};

#[test]
fn a_generated_glb_is_counted_exactly() {
    let bytes = samples::glb(&ModelSpec { triangles: 1000, materials: 3, ..ModelSpec::default() });
    let analysis = analyse(&bytes, &Limits::default());
    assert_eq!(analysis.kind, Some(Kind::Glb));
    assert!(analysis.findings.list.is_empty(), "{:?}", analysis.findings);
    let Stats::Model(model) = &analysis.stats else { panic!("{:?}", analysis.stats) };
    assert_eq!(model.triangles, 1000);
    assert_eq!(model.materials, 3);
    assert_eq!(model.draw_calls, 3);
}
