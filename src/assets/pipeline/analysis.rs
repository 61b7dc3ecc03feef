//! The analyzing step: the version's bytes in one file, copied beside the worker, read by the
//! analysers within their ceilings. Models, pictures and sounds are read into memory (at most
//! [`IN_MEMORY_MAX`]); archives are listed from their central directory and videos probed by
//! `ffprobe`, both from the file.

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::tools::Tools;
use crate::assets::analyse::{self, Analysis, Code, Finding, Kind, Limits, Stats};
use crate::assets::model::upload::part_key;
use crate::assets::model::views::Detail;
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::asset_upload::StoreKind;
use crate::db::entities::{asset, asset_setting, asset_upload, asset_version};
use crate::error::{Error, Result};

/// The largest file read into memory for analysis (models, pictures, sounds): 64 MiB. A larger
/// one of these kinds is reported over the size limit without being read.
pub const IN_MEMORY_MAX: u64 = 64 * 1024 * 1024;

/// A local copy of a version's file, removed when dropped.
pub struct LocalCopy {
    dir: PathBuf,
    /// The file.
    pub path: PathBuf,
}

impl Drop for LocalCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the analysers found, with the file's digest and length.
pub struct Analysed {
    /// The analysis.
    pub analysis: Analysis,
    /// Hex SHA-256 of the bytes.
    pub sha256: String,
    /// Bytes.
    pub bytes: u64,
}

/// Joins a local upload's parts into the version's file (once: a file already whole is kept)
/// and copies it to a local file.
pub async fn assemble(tools: &Tools<'_>, version: &asset_version::Model) -> Result<LocalCopy> {
    let whole = tools.storage.size(&version.object_key).await? == Some(version.byte_size as u64);
    if !whole
        && let Some(upload) = asset_upload::Model::of_version(tools.db, version.id).await?
        && upload.store == StoreKind::Local
    {
        let keys: Vec<String> = (1..=upload.part_count).map(|n| part_key(&upload.id, n)).collect();
        tools.storage.concat(&keys, &version.object_key).await?;
        tools.storage.delete_prefix(&format!("uploads/{}", upload.id)).await?;
    }
    let dir = tools.scratch.join(&version.uuid);
    tokio::fs::create_dir_all(&dir).await.map_err(|e| Error::Internal(format!("{}: {e}", dir.display())))?;
    let copy = LocalCopy { path: dir.join("file"), dir };
    tools.storage.download_to(&version.object_key, &copy.path).await?;
    Ok(copy)
}

/// Runs the analysers over the local copy (on a blocking thread).
pub async fn analyse(
    _tools: &Tools<'_>,
    version: &asset_version::Model,
    setting: &asset_setting::Model,
    local: &LocalCopy,
) -> Result<Analysed> {
    let path = local.path.clone();
    let limits = Limits { max_bytes: setting.max_bytes.max(0) as u64, ..Limits::default() };
    let uuid = version.uuid.clone();
    tokio::task::spawn_blocking(move || analyse_file(&path, &limits))
        .await
        .map_err(|e| Error::Internal(format!("analysing {uuid}: {e}")))?
}

/// The analysis of the file at `path`.
fn analyse_file(path: &Path, limits: &Limits) -> Result<Analysed> {
    let io = |e: std::io::Error| Error::Internal(format!("{}: {e}", path.display()));
    let (sha256, bytes) = digest(path).map_err(io)?;
    let mut head = [0u8; 64];
    let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).map_err(io)?;
    let kind = analyse::sniff(&head[..read]);
    let analysis = match kind {
        Some(Kind::Zip) => analyse::analyse_zip(std::fs::File::open(path).map_err(io)?, limits),
        Some(Kind::Mp4 | Kind::Mov | Kind::Webm | Kind::Matroska) => analyse::analyse_video(path, limits),
        _ if bytes > IN_MEMORY_MAX.min(limits.max_bytes) => {
            let mut over =
                Analysis { kind, byte_length: bytes, stats: Stats::None, vrm: None, findings: Default::default() };
            over.findings.push(Finding::error(Code::BytesOverLimit).values(limits.max_bytes.min(IN_MEMORY_MAX), bytes));
            over
        }
        _ => analyse::analyse(&std::fs::read(path).map_err(io)?, limits),
    };
    Ok(Analysed { analysis, sha256, bytes })
}

/// SHA-256 and length of the file at `path`, read a chunk at a time.
fn digest(path: &Path) -> std::io::Result<(String, u64)> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1024 * 1024];
    let mut total = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex::encode(hasher.finalize()), total))
}

/// The version detail of spec §3 from what the analysis found.
pub fn detail(analysed: &Analysed, asset: &asset::Model, setting: &asset_setting::Model) -> Detail {
    let found = analysed.analysis.stats.version_detail();
    let kind = analysed.analysis.kind;
    let mut detail = Detail {
        file_type: kind.map(|k| k.as_str().to_string()),
        width: found.width,
        height: found.height,
        zip_entries: found.zip_entries,
        ..Detail::default()
    };
    match &analysed.analysis.stats {
        Stats::Audio(audio) => detail.duration_seconds = audio.duration_seconds,
        Stats::Video(video) => detail.duration_seconds = video.duration_seconds,
        _ => {}
    }
    match setting.asset_type {
        AssetType::Avatar => {
            detail.motion_type = Some("general".into());
            detail.target_age = Some("all_ages".into());
            detail.avatar_type = analysed
                .analysis
                .vrm
                .as_ref()
                .map(|v| if v.spec_version.starts_with('1') { "vrm1".to_string() } else { "vrm0".to_string() });
            detail.polygon_count = found.polygon_count;
        }
        AssetType::Furniture => {
            detail.sub_type = asset.sub_type;
            detail.object_type = Some("object".into());
            detail.polygon_count = found.polygon_count;
        }
        AssetType::None | AssetType::Zip => {
            detail.scene_asset_type = kind.and_then(|k| match k {
                Kind::Glb | Kind::Gltf | Kind::Vrm => Some("model".to_string()),
                Kind::Png | Kind::Jpeg | Kind::Gif | Kind::Webp => Some("image".to_string()),
                Kind::Ogg | Kind::Mp3 | Kind::Wav | Kind::Flac => Some("sound".to_string()),
                _ => None,
            });
        }
    }
    detail
}
