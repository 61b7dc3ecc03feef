//! `vmarket sample …`: writes a generated asset file (the analysers' samples) — a GLB, or a VRM
//! 0.x or 1.0 avatar, with a chosen number of triangles and materials and, to try uploads in
//! parts, padding. For trying the uploader by hand and for the browser tests; no database.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::assets::analyse::samples::{ModelSpec, VrmSample, glb};

/// What to write.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SampleKind {
    /// A plain GLB model.
    Glb,
    /// A VRM 0.x avatar.
    Vrm0,
    /// A VRM 1.0 avatar.
    Vrm1,
}

/// `vmarket sample`
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// The kind of file.
    #[arg(value_enum)]
    pub kind: SampleKind,
    /// Triangles drawn.
    #[arg(long, default_value_t = 12)]
    pub triangles: u32,
    /// Materials.
    #[arg(long, default_value_t = 1)]
    pub materials: u32,
    /// Height in metres (width and depth are half of it).
    #[arg(long, default_value_t = 1.6)]
    pub height: f32,
    /// Pad the file to at least this many bytes.
    #[arg(long, default_value_t = 0)]
    pub min_bytes: usize,
    /// Where to write it.
    #[arg(long)]
    pub out: PathBuf,
}

/// Writes the sample; answers its size.
pub fn write(args: &SampleArgs) -> Result<usize, String> {
    let vrm = match args.kind {
        SampleKind::Glb => None,
        SampleKind::Vrm0 => Some(VrmSample::V0),
        SampleKind::Vrm1 => Some(VrmSample::V1),
    };
    let mut spec = ModelSpec {
        triangles: args.triangles.max(1),
        materials: args.materials.max(1),
        size: [args.height / 2.0, args.height, args.height / 2.0],
        skinned: vrm.is_some(),
        vrm,
        ..ModelSpec::default()
    };
    let plain = glb(&spec).len();
    spec.padding = args.min_bytes.saturating_sub(plain).next_multiple_of(4);
    let bytes = glb(&spec);
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(bytes.len())
}
