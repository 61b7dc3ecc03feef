//! The demo's assets (`vmarket seed demo`): real files from the analysers' sample generators —
//! for the demo exhibitor a VRM 0.x avatar that passes, a GLB table for the floor, a VRM 1.0
//! avatar of 25,000 triangles whose version failed its report, a booth package (ZIP) for
//! 2026Winter, two avatar-part bundles (ZIP) and a short video for a housing video (`static/demo/videos/lantern-loop.mp4`, not
//! converted yet: the demo exhibitor converts it on `/mypage/housing-videos`); for the owner of
//! the exhibitor's other circle, that circle's booth package — sent through the same pipeline as
//! any upload, so each has its analysis, report and pictures. A few hundred KB in all.
//! Idempotent: an asset its owner already has by that name is left alone.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::assets::analyse::samples::{ModelSpec, VrmSample, ZipSample, glb, zip};
use crate::assets::pipeline::{self, Tools};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_version, user};
use crate::error::Result;
use crate::forms::asset::NewAsset;
use crate::http::upload::ImageDecoder;
use crate::storage::Storage;

/// Whose assets these are (the demo exhibitor, `exhibitor@demo.vmarket.test`).
pub const OWNER: &str = "kaede_kohaku";

/// The owner of the demo exhibitor's other circle (夜更かし天文部).
pub const OTHER_OWNER: &str = "tsukishiro_noa";

/// The name of the demo exhibitor's booth package, and of the other circle's.
pub const BOOTH_PACKAGES: [(&str, &str); 2] =
    [(OWNER, "ともしび工房ブース（2026Winter）"), (OTHER_OWNER, "天文部ブース（2026Winter）")];

/// The names of the demo exhibitor's two avatar-part bundles: basic hair (free parts) and a
/// ribbon (sold in the store; its part is for buyers).
pub const PART_BUNDLES: [&str; 2] = ["ベーシックヘアパーツ", "灯りのリボン"];

/// A booth package's files: a Unity project's.
const BOOTH: &[(&str, &[u8])] = &[
    ("Assets/Booth/Booth.prefab", b"%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: Booth\n"),
    ("Assets/Booth/Materials/Lantern.mat", b"%YAML 1.1\n"),
    ("Assets/Booth/README.txt", b"vmarket demo booth"),
];

/// What a demo asset's file is made from.
enum Source {
    /// A model (GLB or VRM).
    Model(ModelSpec),
    /// A ZIP of these files (a booth package's Unity project, an avatar-part bundle).
    Zip(&'static [(&'static str, &'static [u8])]),
    /// A file kept in the repository (a video: made once with ffmpeg, 4 s, 41 KB).
    File(&'static [u8]),
}

/// One demo asset: its owner, kind, names and file.
struct Demo {
    owner: &'static str,
    label: &'static str,
    name: &'static str,
    description: &'static str,
    file_name: &'static str,
    source: Source,
}

fn demos() -> Vec<Demo> {
    vec![
        Demo {
            owner: OWNER,
            label: "avatar",
            name: "こはくちゃん（デモアバター）",
            description: "ブースで接客する看板アバターです。",
            file_name: "kohaku.vrm",
            source: Source::Model(ModelSpec {
                triangles: 3_000,
                materials: 2,
                texture: Some((512, 512)),
                size: [0.7, 1.5, 0.4],
                skinned: true,
                vrm: Some(VrmSample::V0),
                ..ModelSpec::default()
            }),
        },
        Demo {
            owner: OWNER,
            label: "furniture",
            name: "木のテーブル",
            description: "展示台に使うテーブルです。",
            file_name: "table.glb",
            source: Source::Model(ModelSpec { triangles: 600, size: [1.2, 0.75, 0.8], ..ModelSpec::default() }),
        },
        Demo {
            owner: OWNER,
            label: "avatar",
            name: "作りかけのアバター",
            description: "ポリゴンを減らす前の試作です。",
            file_name: "draft.vrm",
            source: Source::Model(ModelSpec {
                triangles: 25_000,
                size: [0.6, 1.6, 0.4],
                skinned: true,
                vrm: Some(VrmSample::V1),
                ..ModelSpec::default()
            }),
        },
        Demo {
            owner: OWNER,
            label: "booth_package",
            name: BOOTH_PACKAGES[0].1,
            description: "灯りの屋台ブース。入稿ツールで書き出したパッケージです。",
            file_name: "tomoshibi-booth.zip",
            source: Source::Zip(BOOTH),
        },
        Demo {
            owner: OWNER,
            label: "avatar_part_bundle",
            name: PART_BUNDLES[0],
            description: "アバターメーカーで使える基本のヘアパーツです。",
            file_name: "basic-hair.zip",
            source: Source::Zip(&[
                ("Parts/Hair/ShortBob.prefab", b"%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: ShortBob\n"),
                ("Parts/Hair/ShortBob.mat", b"%YAML 1.1\n"),
            ]),
        },
        Demo {
            owner: OWNER,
            label: "avatar_part_bundle",
            name: PART_BUNDLES[1],
            description: "灯りの色のリボン。ストアで販売しています。",
            file_name: "lantern-ribbon.zip",
            source: Source::Zip(&[
                (
                    "Parts/Accessory/LanternRibbon.prefab",
                    b"%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: LanternRibbon\n",
                ),
                ("Parts/Accessory/LanternRibbon.mat", b"%YAML 1.1\n"),
            ]),
        },
        Demo {
            owner: OWNER,
            label: "housing_video",
            name: "灯りのループ映像",
            description: "ブースの壁に流す短いループ映像です。",
            file_name: "lantern-loop.mp4",
            source: Source::File(include_bytes!("../../static/demo/videos/lantern-loop.mp4")),
        },
        Demo {
            owner: OTHER_OWNER,
            label: "booth_package",
            name: BOOTH_PACKAGES[1].1,
            description: "星空観測ドームのブースです。",
            file_name: "tenmonbu-booth.zip",
            source: Source::Zip(BOOTH),
        },
    ]
}

/// The bytes of a demo file.
fn bytes_of(source: &Source) -> Vec<u8> {
    match source {
        Source::Model(spec) => glb(spec),
        Source::Zip(files) => zip(&files.iter().map(|(name, bytes)| ZipSample::file(name, bytes)).collect::<Vec<_>>()),
        Source::File(bytes) => bytes.to_vec(),
    }
}

/// Creates the demo assets that are missing; answers the names created.
pub async fn seed(
    db: &DatabaseConnection,
    storage: &Storage,
    data_dir: &str,
    now: DateTime<Utc>,
) -> Result<Vec<String>> {
    let images = ImageDecoder::new(256);
    let tools = Tools::new(db, storage, &images, data_dir);
    let mut created = Vec::new();
    for demo in demos() {
        let Some(owner) = user::Entity::find().filter(user::Column::VmarketId.eq(demo.owner)).one(db).await? else {
            continue;
        };
        let exists = asset::Entity::find()
            .filter(asset::Column::UserId.eq(owner.id))
            .filter(asset::Column::Name.eq(demo.name))
            .one(db)
            .await?
            .is_some();
        if exists {
            continue;
        }
        let bytes = bytes_of(&demo.source);
        let setting = asset_setting::Model::by_label(db, demo.label).await?;
        let input = NewAsset {
            asset_setting_label: demo.label.into(),
            name: demo.name.into(),
            description: demo.description.into(),
            sub_type: None,
            file_name: demo.file_name.into(),
            byte_size: bytes.len() as i64,
            temporary_upload_id: None,
        };
        let row = asset::Model::create(db, owner.id, &setting, &input, now).await?;
        let version = asset_version::Model::open(db, &row, demo.file_name, bytes.len() as i64, now).await?;
        storage.put(&version.object_key, bytes).await?;
        asset_version::Model::advance(db, version.id, UploadStatus::Waiting, UploadStatus::Analyzing, now).await?;
        // Each run takes the version one or more steps on; four reach the end.
        for _ in 0..4 {
            pipeline::run(&tools, version.id, now).await?;
        }
        created.push(demo.name.to_string());
    }
    Ok(created)
}
