//! The demo exhibitor's assets (`vmarket seed demo`): real files from the analysers' sample
//! generators — a VRM 0.x avatar that passes, a GLB table for the floor, and a VRM 1.0 avatar of
//! 25,000 triangles whose version failed its report — sent through the same pipeline as any
//! upload, so each has its analysis, report and pictures. A few hundred KB in all. Idempotent: an
//! asset the user already has by that name is left alone.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::assets::analyse::samples::{ModelSpec, VrmSample, glb};
use crate::assets::pipeline::{self, Tools};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_version, user};
use crate::error::Result;
use crate::forms::asset::NewAsset;
use crate::http::upload::ImageDecoder;
use crate::storage::Storage;

/// Whose assets these are (the demo exhibitor, `exhibitor@demo.vmarket.test`).
pub const OWNER: &str = "kaede_kohaku";

/// One demo asset: its kind, names and file.
struct Demo {
    label: &'static str,
    name: &'static str,
    description: &'static str,
    file_name: &'static str,
    spec: ModelSpec,
}

fn demos() -> Vec<Demo> {
    vec![
        Demo {
            label: "avatar",
            name: "こはくちゃん（デモアバター）",
            description: "ブースで接客する看板アバターです。",
            file_name: "kohaku.vrm",
            spec: ModelSpec {
                triangles: 3_000,
                materials: 2,
                texture: Some((512, 512)),
                size: [0.7, 1.5, 0.4],
                skinned: true,
                vrm: Some(VrmSample::V0),
                ..ModelSpec::default()
            },
        },
        Demo {
            label: "furniture",
            name: "木のテーブル",
            description: "展示台に使うテーブルです。",
            file_name: "table.glb",
            spec: ModelSpec { triangles: 600, size: [1.2, 0.75, 0.8], ..ModelSpec::default() },
        },
        Demo {
            label: "avatar",
            name: "作りかけのアバター",
            description: "ポリゴンを減らす前の試作です。",
            file_name: "draft.vrm",
            spec: ModelSpec {
                triangles: 25_000,
                size: [0.6, 1.6, 0.4],
                skinned: true,
                vrm: Some(VrmSample::V1),
                ..ModelSpec::default()
            },
        },
    ]
}

/// Creates the demo assets that are missing; answers the names created.
pub async fn seed(
    db: &DatabaseConnection,
    storage: &Storage,
    data_dir: &str,
    now: DateTime<Utc>,
) -> Result<Vec<String>> {
    let Some(owner) = user::Entity::find().filter(user::Column::VmarketId.eq(OWNER)).one(db).await? else {
        return Ok(Vec::new());
    };
    let images = ImageDecoder::new(256);
    let tools = Tools::new(db, storage, &images, data_dir);
    let mut created = Vec::new();
    for demo in demos() {
        let exists = asset::Entity::find()
            .filter(asset::Column::UserId.eq(owner.id))
            .filter(asset::Column::Name.eq(demo.name))
            .one(db)
            .await?
            .is_some();
        if exists {
            continue;
        }
        let bytes = glb(&demo.spec);
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
