//! A user's booths (housing scenes) and their autosaved drafts (temporary scenes).
//!
//! Every scene has one draft, made from the scene when the editor first opens it. The editor
//! writes the draft with the revision it last read ([`put_draft`]): one conditional `UPDATE`
//! (`… WHERE revision = ?`), so of two tabs writing from the same revision exactly one wins and
//! the other gets 409 `draft_conflict` — never a silent overwrite, on either database. Saving
//! ([`save`]) copies the draft at a stated revision into the scene with the server's totals.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::booth::scene::SceneJson;
use crate::booth::totals::Totals;
use crate::db::entities::{housing_scene, preset_home, temporary_scene};
use crate::error::{Error, Result};

/// Longest name of a scene, in characters.
pub const NAME_MAX: usize = 100;
/// Longest introduction, in characters.
pub const INTRODUCTION_MAX: usize = 2000;

/// A scene as its owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SceneView {
    /// Id.
    pub id: i32,
    /// Name.
    pub name: String,
    /// Introduction.
    pub introduction: String,
    /// Bumped by every save.
    pub revision: i32,
    /// Shown in its world's lookup (staff set it).
    pub published: bool,
    /// The preset home.
    pub preset_home_id: i32,
    /// Last saved.
    pub updated_at: DateTime<Utc>,
}

/// A draft.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DraftView {
    /// Bumped by every autosave.
    pub revision: i32,
    /// The draft scene.
    pub scene: SceneJson,
    /// Last autosaved.
    pub updated_at: DateTime<Utc>,
}

/// What a user sends to start a booth.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct NewScene {
    /// 1–100 characters.
    pub name: String,
    /// Up to 2,000 characters.
    pub introduction: String,
    /// A published preset home.
    pub preset_home_id: Option<i32>,
}

impl NewScene {
    /// The one check of a new scene's texts (the home is checked against the database).
    pub fn problems(&self) -> Vec<crate::error::Invalid> {
        use crate::error::Invalid;
        let mut found = Vec::new();
        let name = self.name.trim().chars().count();
        if name == 0 {
            found.push(Invalid::new("name", "validation.required"));
        } else if name > NAME_MAX || !crate::model::text::is_clean(&self.name) {
            found.push(Invalid::new("name", "validation.too_long").with("max", NAME_MAX));
        }
        if self.introduction.chars().count() > INTRODUCTION_MAX || !crate::model::text::is_clean(&self.introduction) {
            found.push(Invalid::new("introduction", "validation.too_long").with("max", INTRODUCTION_MAX));
        }
        if self.preset_home_id.is_none() {
            found.push(Invalid::new("preset_home_id", "validation.required"));
        }
        found
    }
}

impl housing_scene::Model {
    /// The owner's view.
    pub fn view(&self) -> SceneView {
        SceneView {
            id: self.id,
            name: self.name.clone(),
            introduction: self.introduction.clone(),
            revision: self.revision,
            published: self.published,
            preset_home_id: self.preset_home_id,
            updated_at: self.updated_at,
        }
    }

    /// The saved scene.
    pub fn scene(&self) -> SceneJson {
        serde_json::from_str(&self.scene_json).unwrap_or_else(|_| SceneJson::empty(self.preset_home_id))
    }

    /// The saved totals.
    pub fn saved_totals(&self) -> Totals {
        serde_json::from_str(&self.totals).unwrap_or_default()
    }

    /// Starts an empty booth of `user_id` in `home`.
    pub async fn create(
        db: &impl ConnectionTrait,
        user_id: i32,
        home: &preset_home::Model,
        input: &NewScene,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        Ok(housing_scene::ActiveModel {
            user_id: Set(user_id),
            preset_home_id: Set(home.id),
            world_id: Set(None),
            world_code: Set(None),
            name: Set(input.name.trim().to_string()),
            introduction: Set(input.introduction.trim().to_string()),
            scene_json: Set(json(&SceneJson::empty(home.id))?),
            revision: Set(0),
            totals: Set(json(&Totals::default())?),
            published: Set(false),
            asset_id: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?)
    }

    /// Scene `id` of `user_id`: 404 for anyone else's.
    pub async fn for_owner(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        housing_scene::Entity::find_by_id(id)
            .one(db)
            .await?
            .filter(|s| s.user_id == user_id)
            .ok_or_else(Error::not_found)
    }

    /// The user's scenes, last changed first.
    pub async fn of_user(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<Self>> {
        Ok(housing_scene::Entity::find()
            .filter(housing_scene::Column::UserId.eq(user_id))
            .order_by_desc(housing_scene::Column::UpdatedAt)
            .order_by_desc(housing_scene::Column::Id)
            .all(db)
            .await?)
    }

    /// The published scenes of world `code`, oldest first.
    pub async fn published_for_world(db: &impl ConnectionTrait, code: &str) -> Result<Vec<Self>> {
        Ok(housing_scene::Entity::find()
            .filter(housing_scene::Column::WorldCode.eq(code))
            .filter(housing_scene::Column::Published.eq(true))
            .order_by_asc(housing_scene::Column::Id)
            .all(db)
            .await?)
    }
}

/// JSON text of `value`.
pub fn json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::Internal(e.to_string()))
}

impl temporary_scene::Model {
    /// The view.
    pub fn view(&self) -> DraftView {
        DraftView {
            revision: self.revision,
            scene: serde_json::from_str(&self.scene_json).unwrap_or_else(|_| SceneJson::empty(0)),
            updated_at: self.updated_at,
        }
    }
}

/// The draft of `scene`, made from the saved scene when there is none yet.
pub async fn draft_of(
    db: &impl ConnectionTrait,
    scene: &housing_scene::Model,
    now: DateTime<Utc>,
) -> Result<temporary_scene::Model> {
    if let Some(found) = find_draft(db, scene.id).await? {
        return Ok(found);
    }
    let made = temporary_scene::ActiveModel {
        housing_scene_id: Set(scene.id),
        user_id: Set(scene.user_id),
        scene_json: Set(scene.scene_json.clone()),
        revision: Set(0),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await;
    match made {
        Ok(row) => Ok(row),
        // Two first opens at once: the unique index kept one; read it.
        Err(_) => find_draft(db, scene.id).await?.ok_or_else(Error::not_found),
    }
}

async fn find_draft(db: &impl ConnectionTrait, scene_id: i32) -> Result<Option<temporary_scene::Model>> {
    Ok(temporary_scene::Entity::find().filter(temporary_scene::Column::HousingSceneId.eq(scene_id)).one(db).await?)
}

/// Writes `draft` over the draft of `scene` if it is still at `revision` (409 `draft_conflict`
/// otherwise: another tab wrote first). The draft after.
pub async fn put_draft(
    db: &impl ConnectionTrait,
    scene: &housing_scene::Model,
    revision: i32,
    draft: &SceneJson,
    now: DateTime<Utc>,
) -> Result<temporary_scene::Model> {
    draft_of(db, scene, now).await?;
    let written = temporary_scene::Entity::update_many()
        .col_expr(temporary_scene::Column::SceneJson, Expr::value(json(draft)?))
        .col_expr(temporary_scene::Column::Revision, Expr::col(temporary_scene::Column::Revision).add(1))
        .col_expr(temporary_scene::Column::UpdatedAt, Expr::value(now))
        .filter(temporary_scene::Column::HousingSceneId.eq(scene.id))
        .filter(temporary_scene::Column::Revision.eq(revision))
        .exec(db)
        .await?;
    if written.rows_affected != 1 {
        return Err(Error::Conflict { code: "draft_conflict" });
    }
    find_draft(db, scene.id).await?.ok_or_else(Error::not_found)
}

/// The draft of `scene` at `revision` (409 `draft_conflict` when it moved on).
pub async fn draft_at(
    db: &impl ConnectionTrait,
    scene: &housing_scene::Model,
    revision: i32,
    now: DateTime<Utc>,
) -> Result<SceneJson> {
    let draft = draft_of(db, scene, now).await?;
    if draft.revision != revision {
        return Err(Error::Conflict { code: "draft_conflict" });
    }
    Ok(draft.view().scene)
}

/// Saves `checked` (a draft that passed the check) as `scene` with its `totals`; the scene after.
pub async fn save(
    db: &impl ConnectionTrait,
    scene: housing_scene::Model,
    checked: &SceneJson,
    totals: &Totals,
    now: DateTime<Utc>,
) -> Result<housing_scene::Model> {
    let revision = scene.revision + 1;
    let mut row: housing_scene::ActiveModel = scene.into();
    row.scene_json = Set(json(checked)?);
    row.totals = Set(json(totals)?);
    row.revision = Set(revision);
    row.updated_at = Set(now);
    Ok(row.update(db).await?)
}
