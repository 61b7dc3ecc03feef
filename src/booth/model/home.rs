//! Preset homes (spec §3 "Housing" preset home): the rooms a booth is built in.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::Serialize;
use utoipa::ToSchema;

use crate::booth::scene::Interior;
use crate::db::entities::preset_home;
use crate::error::{Error, Result};
use crate::types::Lang;

/// A home as the editor and the pages see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HomeView {
    /// Id.
    pub id: i32,
    /// The platform it is made for.
    pub platform_code: String,
    /// Name in the request's language.
    pub name: String,
    /// The room's GLB.
    pub scene_url: String,
    /// A picture of the room.
    pub thumbnail_url: Option<String>,
    /// Interior `[width, height, depth]`, metres.
    pub size: [f64; 3],
}

impl preset_home::Model {
    /// The interior.
    pub fn interior(&self) -> Interior {
        Interior([self.width, self.height, self.depth])
    }

    /// The view in `lang`.
    pub fn view(&self, lang: Lang) -> HomeView {
        HomeView {
            id: self.id,
            platform_code: self.platform_code.clone(),
            name: lang.pick(&self.name_ja, &self.name_en).to_string(),
            scene_url: self.scene_url.clone(),
            thumbnail_url: self.thumbnail_url.clone(),
            size: [self.width, self.height, self.depth],
        }
    }

    /// The published homes, in their order.
    pub async fn published(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(preset_home::Entity::find()
            .filter(preset_home::Column::Published.eq(true))
            .order_by_asc(preset_home::Column::Order)
            .order_by_asc(preset_home::Column::Id)
            .all(db)
            .await?)
    }

    /// Home `id`, published or not (a scene keeps the home it was made in).
    pub async fn by_id(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        preset_home::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// A published home to start a scene in (422 at `preset_home_id` otherwise).
    pub async fn to_start(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        preset_home::Entity::find_by_id(id)
            .one(db)
            .await?
            .filter(|h| h.published)
            .ok_or_else(|| Error::invalid("preset_home_id", "booth_maker.validation.home"))
    }
}

/// One demo home: platform, names, order, file stem, interior.
pub struct DemoHome {
    /// Platform code.
    pub platform_code: &'static str,
    /// Japanese name.
    pub name_ja: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// The file stem under `static/booth-maker/homes/` (`.glb` and `.svg`).
    pub stem: &'static str,
    /// Interior `[width, height, depth]`.
    pub size: [f64; 3],
}

/// The homes every installation starts with: real GLB rooms kept in the repository
/// (`static/booth-maker/homes/`, made by `scripts/make-preset-homes`).
pub const DEMO_HOMES: [DemoHome; 2] = [
    DemoHome {
        platform_code: "vket_cloud",
        name_ja: "木の屋台",
        name_en: "Wooden stall",
        stem: "stall",
        size: [4.0, 3.0, 4.0],
    },
    DemoHome {
        platform_code: "vket_cloud",
        name_ja: "白いギャラリー",
        name_en: "White gallery",
        stem: "gallery",
        size: [4.0, 3.5, 3.0],
    },
];

/// Writes the demo homes that are missing (by English name); answers how many were written.
pub async fn ensure_demo_homes(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<usize> {
    let mut written = 0;
    for (order, home) in DEMO_HOMES.iter().enumerate() {
        let exists =
            preset_home::Entity::find().filter(preset_home::Column::NameEn.eq(home.name_en)).one(db).await?.is_some();
        if exists {
            continue;
        }
        let [width, height, depth] = home.size;
        preset_home::ActiveModel {
            platform_code: Set(home.platform_code.into()),
            name_ja: Set(home.name_ja.into()),
            name_en: Set(home.name_en.into()),
            order: Set(order as i32 + 1),
            scene_url: Set(format!("/static/booth-maker/homes/{}.glb", home.stem)),
            thumbnail_url: Set(Some(format!("/static/booth-maker/homes/{}.svg", home.stem))),
            width: Set(width),
            height: Set(height),
            depth: Set(depth),
            published: Set(true),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
        written += 1;
    }
    Ok(written)
}
