//! The reference converter's work on one avatar (issue 31 item 4), pure (bytes in, bytes out):
//! what this machine can honestly do of a VRChat conversion. It checks the file is a VRM
//! (0.x or 1.0; the 1.0 beta is refused, as the uploader refuses it) that the asset analyser
//! finds no error in, and writes it again as a normalised GLB: the JSON chunk re-serialised
//! compactly and padded with spaces, the binary chunk padded with zeros, both 4-byte aligned,
//! any other chunk and bytes past the declared length dropped, the header's length exact.
//!
//! What it does not do, because nothing here can: build the Unity asset bundle VRChat takes
//! (that needs Unity and the VRChat SDK) or upload anything to VRChat. A worker that can would
//! claim the upload step of the converter protocol; the reference converter never claims it,
//! so an avatar it converted waits in `converted` — it never pretends to be on VRChat.

use serde_json::Value;

use crate::assets::analyse::glb::split;
use crate::assets::analyse::{Kind, Limits, VrmMeta, analyse};

/// A converted avatar: the normalised GLB and the VRM meta read from it.
#[derive(Debug, Clone)]
pub struct Converted {
    /// The normalised GLB.
    pub glb: Vec<u8>,
    /// The avatar's VRM meta.
    pub meta: VrmMeta,
}

/// Why a file cannot be converted: a code (the converter protocol's failure code) and words
/// for its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// `not_vrm`, `vrm_beta`, `invalid_model`.
    pub code: &'static str,
    /// What was wrong (the analyser's finding codes).
    pub message: String,
}

const JSON_CHUNK: u32 = 0x4E4F_534A;
const BIN_CHUNK: u32 = 0x004E_4942;

/// Converts `bytes` (the avatar as uploaded) within `limits`.
pub fn convert(bytes: &[u8], limits: &Limits) -> Result<Converted, Refusal> {
    let analysis = analyse(bytes, limits);
    if analysis.findings.has_errors() {
        let codes: Vec<&str> = analysis
            .findings
            .list
            .iter()
            .filter(|f| f.severity == crate::assets::analyse::Severity::Error)
            .map(|f| f.code.as_str())
            .collect();
        let code = if analysis.kind == Some(Kind::Vrm) { "invalid_model" } else { "not_vrm" };
        return Err(Refusal { code, message: codes.join(", ") });
    }
    let meta = match (analysis.kind, analysis.vrm) {
        (Some(Kind::Vrm), Some(meta)) => meta,
        (kind, _) => {
            let found = kind.map(|k| format!("{k:?}")).unwrap_or_else(|| "unknown".into());
            return Err(Refusal { code: "not_vrm", message: format!("the file is {found}, not a VRM") });
        }
    };
    if meta.is_beta() {
        return Err(Refusal { code: "vrm_beta", message: "VRM 1.0-beta is not supported".into() });
    }
    let glb = normalise(bytes).map_err(|message| Refusal { code: "invalid_model", message })?;
    Ok(Converted { glb, meta })
}

/// `bytes` (a GLB) written again in normal form (see the module comment).
pub fn normalise(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let container = split(bytes)
        .map_err(|f| format!("{}: {}", f.code.as_str(), f.actual.map(|v| v.to_string()).unwrap_or_default()))?;
    let json: Value = serde_json::from_slice(container.json).map_err(|e| format!("the JSON chunk: {e}"))?;
    let mut json = serde_json::to_vec(&json).map_err(|e| format!("the JSON chunk: {e}"))?;
    json.resize(json.len().next_multiple_of(4), b' ');
    let bin = container.bin.map(|b| {
        let mut bin = b.to_vec();
        bin.resize(bin.len().next_multiple_of(4), 0);
        bin
    });
    let total = 12 + 8 + json.len() + bin.as_ref().map_or(0, |b| 8 + b.len());
    let total = u32::try_from(total).map_err(|_| "the GLB is over 4 GiB".to_string())?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&JSON_CHUNK.to_le_bytes());
    out.extend_from_slice(&json);
    if let Some(bin) = bin {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(&BIN_CHUNK.to_le_bytes());
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::assets::analyse::samples::{ModelSpec, VrmSample, glb};

    fn avatar(vrm: Option<VrmSample>) -> Vec<u8> {
        glb(&ModelSpec { vrm, skinned: true, ..ModelSpec::default() })
    }

    #[test]
    fn a_vrm_converts_into_a_glb_the_analyser_reads_the_same() {
        for sample in [VrmSample::V0, VrmSample::V1] {
            let source = avatar(Some(sample));
            let done = convert(&source, &Limits::default()).expect("converts");
            assert_eq!(done.glb.len() % 4, 0);
            assert_eq!(u32::from_le_bytes(done.glb[8..12].try_into().unwrap()) as usize, done.glb.len());
            let again = analyse(&done.glb, &Limits::default());
            assert_eq!(again.kind, Some(Kind::Vrm));
            assert_eq!(again.stats, analyse(&source, &Limits::default()).stats, "same model");
            assert_eq!(again.vrm.map(|m| m.spec_version), Some(done.meta.spec_version));
            assert_eq!(normalise(&done.glb).unwrap(), done.glb, "normal form is a fixed point");
        }
    }

    #[test]
    fn a_plain_glb_a_beta_and_garbage_are_refused_with_their_code() {
        assert_eq!(convert(&avatar(None), &Limits::default()).unwrap_err().code, "not_vrm");
        assert_eq!(convert(&avatar(Some(VrmSample::V1Beta)), &Limits::default()).unwrap_err().code, "vrm_beta");
        assert_eq!(convert(b"not a model at all", &Limits::default()).unwrap_err().code, "not_vrm");
        let mut cut = avatar(Some(VrmSample::V0));
        cut.truncate(cut.len() / 2);
        assert!(convert(&cut, &Limits::default()).is_err(), "a cut file");
    }

    #[test]
    fn trailing_bytes_and_extra_chunks_are_dropped() {
        let source = avatar(Some(VrmSample::V0));
        let mut longer = source.clone();
        longer.extend_from_slice(b"trailing garbage");
        assert_eq!(normalise(&longer).unwrap(), normalise(&source).unwrap());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        /// Hostile bytes: a refusal or a conversion, never a panic.
        #[test]
        fn fuzz_convert_never_panics(flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..16)) {
            let mut bytes = avatar(Some(VrmSample::V0));
            for (at, value) in flips {
                let at = at % bytes.len();
                bytes[at] = value;
            }
            let _ = convert(&bytes, &Limits::default());
        }
    }
}
