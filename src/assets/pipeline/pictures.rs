//! The converting step's pictures (ASSETS.md "Derived files"): 160, 320 and 640 px fitted, and a
//! 256 px square for the game (`ingame_thumbnail`), from — in this order — the picture itself
//! (an image asset), the snapshot the upload page rendered of a 3D file and sent with the
//! version, a video's frame at one second (ffmpeg), or a placeholder drawn here for the kind.
//! Pictures are decoded within the shared image budget.

use sha2::Digest;
use std::time::Duration;

use image::{DynamicImage, Rgba, RgbaImage};

use super::analysis::IN_MEMORY_MAX;
use super::tools::Tools;
use crate::assets::analyse::Kind;
use crate::assets::model::version::picture_prefix;
use crate::db::entities::asset_version;
use crate::error::{Error, Result};
use crate::http::upload::{fill, fit, png};

/// The fitted sizes.
pub const SIZES: [u32; 3] = [160, 320, 640];
/// The in-game picture's side.
pub const INGAME_SIDE: u32 = 256;
/// Longest wait for ffmpeg's frame.
const FRAME_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the pictures went.
pub struct Made {
    /// Prefix of `160.png`, `320.png`, `640.png`.
    pub prefix: String,
    /// Key of the in-game picture.
    pub ingame: String,
}

/// Makes and stores the pictures of `version`.
pub async fn make(tools: &Tools<'_>, version: &asset_version::Model) -> Result<Made> {
    let kind: Option<Kind> =
        version.kind.as_deref().and_then(|k| serde_json::from_value(serde_json::Value::String(k.into())).ok());
    let source = source(tools, version, kind).await?;
    let rendered = match source {
        Some(bytes) => tools.images.render(bytes, SIZES[2], render).await.ok(),
        None => None,
    };
    let pictures = match rendered {
        Some(pictures) => pictures,
        None => render(placeholder(kind)).map_err(|e| Error::Internal(format!("placeholder: {e}")))?,
    };
    let [small, medium, large, square]: [Vec<u8>; 4] =
        pictures.try_into().map_err(|_| Error::Internal("pictures: four expected".into()))?;
    // Pictures are served as immutable: a new picture (a snapshot after the placeholder) gets a
    // new address, named by what it shows.
    let digest = hex::encode(&sha2::Sha256::digest(&large)[..6]);
    let prefix = format!("{}/{digest}", picture_prefix(&version.uuid));
    let ingame = format!("{prefix}/ingame.png");
    for (name, bytes) in [("160.png", small), ("320.png", medium), ("640.png", large)] {
        tools.storage.put(&format!("{prefix}/{name}"), bytes).await?;
    }
    tools.storage.put(&ingame, square).await?;
    Ok(Made { prefix, ingame })
}

/// The three fitted pictures and the in-game square, PNG-encoded.
fn render(img: DynamicImage) -> std::result::Result<Vec<Vec<u8>>, image::ImageError> {
    let mut out: Vec<Vec<u8>> = SIZES.iter().map(|side| png(&fit(&img, *side, *side))).collect::<Result<_, _>>()?;
    out.push(png(&fill(&img, INGAME_SIDE))?);
    Ok(out)
}

/// The picture to make them from, if there is one.
async fn source(tools: &Tools<'_>, version: &asset_version::Model, kind: Option<Kind>) -> Result<Option<Vec<u8>>> {
    let picture = matches!(kind, Some(Kind::Png | Kind::Jpeg | Kind::Gif | Kind::Webp));
    if picture && (version.byte_size as u64) <= IN_MEMORY_MAX {
        return Ok(tools.storage.get(&version.object_key).await?.map(|b| b.to_vec()));
    }
    if let Some(key) = &version.snapshot_key {
        return Ok(tools.storage.get(key).await?.map(|b| b.to_vec()));
    }
    if matches!(kind, Some(Kind::Mp4 | Kind::Mov | Kind::Webm | Kind::Matroska)) {
        return Ok(video_frame(tools, version).await);
    }
    Ok(None)
}

/// A video's frame at one second as PNG (`None` when ffmpeg is missing, fails or times out).
async fn video_frame(tools: &Tools<'_>, version: &asset_version::Model) -> Option<Vec<u8>> {
    let local = super::analysis::assemble(tools, version).await.ok()?;
    let frame = local.path.with_extension("png");
    let mut child = tokio::process::Command::new("ffmpeg")
        .args(["-v", "error", "-ss", "1", "-i"])
        .arg(&local.path)
        .args(["-frames:v", "1", "-vf", "scale='min(1280,iw)':-2", "-y"])
        .arg(&frame)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .ok()?;
    let done = tokio::time::timeout(FRAME_TIMEOUT, child.wait()).await.ok()?.ok()?;
    if !done.success() {
        return None;
    }
    tokio::fs::read(&frame).await.ok()
}

/// A placeholder for a file with no picture: a tinted square with a mark for its kind.
pub fn placeholder(kind: Option<Kind>) -> DynamicImage {
    let (tint, mark): ([u8; 3], fn(f32, f32) -> bool) = match kind {
        Some(Kind::Glb | Kind::Gltf | Kind::Vrm) => ([72, 118, 196], |x, y| {
            (x.abs() - 0.32).abs() < 0.03 && y.abs() < 0.35 || (y.abs() - 0.32).abs() < 0.03 && x.abs() < 0.35
        }),
        Some(Kind::Ogg | Kind::Mp3 | Kind::Wav | Kind::Flac) => {
            ([196, 120, 72], |x, y| ((x * x + y * y).sqrt() - 0.3).abs() < 0.03)
        }
        Some(Kind::Zip) => {
            ([120, 120, 130], |x, y| x.abs() < 0.3 && y.abs() < 0.3 && ((y * 10.0).floor() as i32 % 2 == 0))
        }
        _ => ([110, 160, 120], |x, y| x.abs() < 0.3 && (y - 0.25 * (x * 6.0).sin()).abs() < 0.03),
    };
    let side = SIZES[2];
    let img = RgbaImage::from_fn(side, side, |px, py| {
        let (x, y) = (px as f32 / side as f32 - 0.5, py as f32 / side as f32 - 0.5);
        let shade = |c: u8| if mark(x, y) { 250 } else { c.saturating_sub((y * 40.0 + 20.0) as u8) };
        Rgba([shade(tint[0]), shade(tint[1]), shade(tint[2]), 255])
    });
    DynamicImage::ImageRgba8(img)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_render_at_every_size() {
        for kind in [Some(Kind::Glb), Some(Kind::Wav), Some(Kind::Zip), None] {
            let pictures = render(placeholder(kind)).unwrap();
            let sides: Vec<u32> = pictures.iter().map(|p| image::load_from_memory(p).unwrap().width()).collect();
            assert_eq!(sides, [160, 320, 640, 256]);
        }
    }
}
