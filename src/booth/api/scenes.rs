//! The user's booths, for the editor: `GET`/`POST /api/v1/booth_maker/scenes`,
//! `GET /scenes/{id}` (everything the editor needs), `PUT /scenes/{id}/draft` (autosave, with
//! the revision read), `POST /scenes/{id}/save` and `POST /scenes/{id}/submissions`. Owner only:
//! anyone else's scene is 404.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, get, post, put, routes};
use sea_orm::EntityTrait;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::booth::model::check::{booth_rules, weigh};
use crate::booth::model::home::HomeView;
use crate::booth::model::housing::{
    DraftView, NewScene, SceneView, draft_at, draft_of, put_draft as write_draft, save as save_scene,
};
use crate::booth::model::palette::{PaletteItem, avatar, palette};
use crate::booth::model::submit::{Submission, submit as submit_scene};
use crate::booth::scene::{MAX_ITEMS, MAX_SCALE, MIN_SCALE, SceneJson};
use crate::booth::totals::{Breach, RuleView, Totals};
use crate::db::entities::{housing_scene, preset_home};
use crate::error::{Error, Result};
use crate::exhibit::slot::all_slots_for;
use crate::exhibit::submission::{SubmissionView, ensure_open};
use crate::exhibit::term::SubmissionTerm;
use crate::model::event::EventWithPhases;
use crate::types::Id;

/// The editor's limits.
#[derive(Debug, Serialize, ToSchema)]
pub struct EditorLimits {
    /// Most items.
    pub max_items: usize,
    /// Smallest scale.
    pub min_scale: f64,
    /// Largest scale.
    pub max_scale: f64,
}

/// The user's avatar, shown for scale.
#[derive(Debug, Serialize, ToSchema)]
pub struct AvatarLink {
    /// The asset's name.
    pub name: String,
    /// A short-lived link to the VRM.
    pub url: String,
}

/// A slot the scene can be submitted for.
#[derive(Debug, Serialize, ToSchema)]
pub struct SlotChoice {
    /// The slot.
    pub id: i32,
    /// Event, circle, plan.
    pub label: String,
    /// Inside the submission term now.
    pub open: bool,
    /// When the term ends.
    pub submission_end_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// Everything the editor needs.
#[derive(Debug, Serialize, ToSchema)]
pub struct EditorView {
    /// The scene.
    pub scene: SceneView,
    /// Its home.
    pub home: HomeView,
    /// Its draft.
    pub draft: DraftView,
    /// What may be placed.
    pub palette: Vec<PaletteItem>,
    /// The user's avatar.
    pub avatar: Option<AvatarLink>,
    /// The booth's rules a scene can break.
    pub rules: Vec<RuleView>,
    /// Limits of the scene.
    pub limits: EditorLimits,
    /// Slots of circles the user owns.
    pub slots: Vec<SlotChoice>,
}

/// Body of `PUT …/draft`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DraftInput {
    /// The draft revision the editor last read.
    pub revision: i32,
    /// The scene.
    pub scene: SceneJson,
}

/// A checked scene's totals and the rules it is over.
#[derive(Debug, Serialize, ToSchema)]
pub struct Checked {
    /// The draft's new revision.
    pub revision: i32,
    /// When written.
    pub updated_at: chrono::DateTime<chrono::Utc>,
    /// The server's totals.
    pub totals: Totals,
    /// The rules over.
    pub findings: Vec<Breach>,
}

/// Body of `POST …/save`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveInput {
    /// The draft revision to save.
    pub revision: i32,
}

/// Answer of `POST …/save`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Saved {
    /// The scene after.
    pub scene: SceneView,
    /// The server's totals.
    pub totals: Totals,
    /// The rules over.
    pub findings: Vec<Breach>,
}

/// Body of `POST …/submissions`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SubmitInput {
    /// A slot of a circle the user owns.
    pub slot_id: i32,
    /// The draft revision to submit.
    pub revision: i32,
}

async fn owned(up: &Uploader<'_>, id: Id, user_id: i32) -> Result<(housing_scene::Model, preset_home::Model)> {
    let scene = housing_scene::Model::for_owner(up.db, id.0, user_id).await?;
    let home = preset_home::Model::by_id(up.db, scene.preset_home_id).await?;
    Ok((scene, home))
}

/// The user's booths, last changed first.
#[utoipa::path(get, path = "/api/v1/booth_maker/scenes", tag = "booth_maker", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = Vec<SceneView>), (status = 401, body = crate::error::ErrorBody)))]
#[get("/scenes")]
pub async fn list(up: Uploader<'_>, current: CurrentUser) -> Result<Json<Vec<SceneView>>> {
    let rows = housing_scene::Model::of_user(up.db, current.user.id).await?;
    Ok(Json(rows.iter().map(|s| s.view()).collect()))
}

/// Starts a booth in a published preset home.
#[utoipa::path(post, path = "/api/v1/booth_maker/scenes", tag = "booth_maker", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)), request_body = NewScene,
    responses((status = 201, body = SceneView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[post("/scenes", data = "<input>")]
pub async fn create(
    up: Uploader<'_>,
    current: CurrentUser,
    input: Body<'_, NewScene>,
) -> Result<(Status, Json<SceneView>)> {
    let input = body(input)?;
    let row = start(&up, current.user.id, &input).await?;
    Ok((Status::Created, Json(row.view())))
}

/// The one way a booth is started (the API and the page's form).
pub async fn start(up: &Uploader<'_>, user_id: i32, input: &NewScene) -> Result<housing_scene::Model> {
    let problems = input.problems();
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    let home = preset_home::Model::to_start(up.db, input.preset_home_id.unwrap_or(0)).await?;
    housing_scene::Model::create(up.db, user_id, &home, input, up.now).await
}

/// Everything the editor needs for one booth.
#[utoipa::path(get, path = "/api/v1/booth_maker/scenes/{id}", tag = "booth_maker", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = EditorView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's")))]
#[get("/scenes/<id>")]
pub async fn show(up: Uploader<'_>, current: CurrentUser, id: Id) -> Result<Json<EditorView>> {
    let user_id = current.user.id;
    let (scene, home) = owned(&up, id, user_id).await?;
    let draft = draft_of(up.db, &scene, up.now).await?.view();
    let (_, _, rules) = booth_rules(up.db).await?;
    let mut slots = Vec::new();
    for slot in all_slots_for(up.db, user_id, up.lang).await?.into_iter().filter(|s| s.circle.is_owner) {
        let Some(found) = crate::db::entities::event::Entity::find_by_id(slot.event_id).one(up.db).await? else {
            continue;
        };
        let event = EventWithPhases::load(up.db, found).await?;
        let term = SubmissionTerm::of(&event, up.now);
        let name = up.lang.pick(&event.event.name_ja, &event.event.name_en);
        slots.push(SlotChoice {
            id: slot.id,
            label: format!("{name} · {} · {}", slot.circle.name, slot.plan.name),
            open: ensure_open(&term, up.now).is_ok(),
            submission_end_at: term.submission_end_at,
        });
    }
    Ok(Json(EditorView {
        palette: palette(&up, user_id, &draft.scene.version_ids()).await?,
        avatar: avatar(&up, user_id).await?.map(|(name, url)| AvatarLink { name, url }),
        scene: scene.view(),
        home: home.view(up.lang),
        draft,
        rules,
        limits: EditorLimits { max_items: MAX_ITEMS, min_scale: MIN_SCALE, max_scale: MAX_SCALE },
        slots,
    }))
}

/// Autosaves the editor's draft: written only if the draft is still at `revision`.
#[utoipa::path(put, path = "/api/v1/booth_maker/scenes/{id}/draft", tag = "booth_maker", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)), request_body = DraftInput,
    responses((status = 200, body = Checked), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "draft_conflict: another tab wrote first"),
              (status = 422, body = crate::error::ErrorBody, description = "the scene, field by field")))]
#[put("/scenes/<id>/draft", data = "<input>")]
pub async fn put_draft(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    input: Body<'_, DraftInput>,
) -> Result<Json<Checked>> {
    let (scene, home) = owned(&up, id, current.user.id).await?;
    let input = body(input)?;
    let weighed = weigh(up.db, current.user.id, &home, &input.scene).await?;
    let written = write_draft(up.db, &scene, input.revision, &input.scene, up.now).await?;
    Ok(Json(Checked {
        revision: written.revision,
        updated_at: written.updated_at,
        totals: weighed.totals,
        findings: weighed.breaches,
    }))
}

/// Saves the draft at `revision` as the booth.
#[utoipa::path(post, path = "/api/v1/booth_maker/scenes/{id}/save", tag = "booth_maker", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)), request_body = SaveInput,
    responses((status = 200, body = Saved), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "draft_conflict"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/scenes/<id>/save", data = "<input>")]
pub async fn save(up: Uploader<'_>, current: CurrentUser, id: Id, input: Body<'_, SaveInput>) -> Result<Json<Saved>> {
    let (scene, home) = owned(&up, id, current.user.id).await?;
    let input = body(input)?;
    let draft = draft_at(up.db, &scene, input.revision, up.now).await?;
    let weighed = weigh(up.db, current.user.id, &home, &draft).await?;
    let saved = save_scene(up.db, scene, &draft, &weighed.totals, up.now).await?;
    Ok(Json(Saved { scene: saved.view(), totals: weighed.totals, findings: weighed.breaches }))
}

/// Submits the draft at `revision` for a slot: saved, frozen and sent for inspection.
#[utoipa::path(post, path = "/api/v1/booth_maker/scenes/{id}/submissions", tag = "booth_maker", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)), request_body = SubmitInput,
    responses((status = 201, body = SubmissionView), (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner"),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's scene or slot"),
              (status = 409, body = crate::error::ErrorBody, description = "draft_conflict, submission_not_open, submission_closed"),
              (status = 422, body = crate::error::ErrorBody, description = "scene_over_limit (each rule named), or the scene field by field")))]
#[post("/scenes/<id>/submissions", data = "<input>")]
pub async fn submit(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    input: Body<'_, SubmitInput>,
) -> Result<(Status, Json<SubmissionView>)> {
    let (scene, home) = owned(&up, id, current.user.id).await?;
    let input = body(input)?;
    let s =
        Submission { scene, home: &home, revision: input.revision, slot_id: input.slot_id, user_id: current.user.id };
    let view = submit_scene(up.db, up.storage, s, up.now).await?;
    Ok((Status::Created, Json(view)))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, show, put_draft, save, submit]
}
