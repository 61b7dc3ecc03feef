//! `posters`: the numbered posters hung in a world (spec §3 Poster), shown on its page: the
//! world, the number, the name and the picture (uploaded from the console, see
//! [`crate::admin::api::images`]).

use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{poster, world};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct Posters;

/// A poster as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct PosterRecord {
    /// Poster id.
    pub id: i32,
    /// The world it hangs in.
    pub world_id: i32,
    /// Its number in the world.
    pub number: i32,
    /// Its name.
    pub name: String,
    /// The picture.
    pub image: Option<String>,
}

/// What staff send for a poster.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct PosterInput {
    /// The world it hangs in.
    #[validate(required)]
    pub world_id: Option<i32>,
    /// Its number in the world.
    #[validate(required, range(min = 1, max = 100000))]
    pub number: Option<i32>,
    /// Its name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name: Option<String>,
    /// The picture (an uploaded picture's address).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub image: Option<String>,
}

impl Resource for Posters {
    type Entity = poster::Entity;
    type Record = PosterRecord;
    type Input = PosterInput;

    const NAME: &'static str = "posters";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["world_id", "number", "name"],
        filter: &["world_id", "number"],
        search: &["name"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] = &[ImageSlot::large("image")];

    async fn records<C: ConnectionTrait + Sync>(_db: &C, rows: Vec<poster::Model>) -> Result<Vec<PosterRecord>> {
        Ok(rows
            .into_iter()
            .map(|p| PosterRecord { id: p.id, world_id: p.world_id, number: p.number, name: p.name, image: p.image })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: PosterInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input).await?.insert(txn).await?.id)
    }

    async fn update(txn: &DatabaseTransaction, row: poster::Model, input: PosterInput, _cx: &Cx<'_>) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: poster::ActiveModel,
    input: PosterInput,
) -> Result<poster::ActiveModel> {
    let world_id = input.world_id.unwrap_or_default();
    must_exist::<world::Entity, _>(txn, world_id, "world_id").await?;
    row.world_id = Set(world_id);
    row.number = Set(input.number.unwrap_or_default());
    row.name = Set(input.name.unwrap_or_default());
    row.image = Set(input.image);
    Ok(row)
}
