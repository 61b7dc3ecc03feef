//! `company_highlights`: the highlight pictures of a company's page, in display order.

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
use crate::db::entities::{company, company_highlight};
use crate::error::Result;

/// The resource.
pub struct CompanyHighlights;

/// A highlight as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct CompanyHighlightRecord {
    /// Highlight id.
    pub id: i32,
    /// Its company.
    pub company_id: i32,
    /// The picture: a site path or an http(s) URL.
    pub image: String,
    /// Position on the company's page.
    pub display_index: i32,
}

/// What staff send for a highlight.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct CompanyHighlightInput {
    /// Its company.
    #[validate(required)]
    pub company_id: Option<i32>,
    /// The picture (an uploaded picture's address, or any site path or http(s) URL).
    #[serde(deserialize_with = "blank")]
    #[validate(required, custom(function = "input::picture"))]
    pub image: Option<String>,
    /// Position on the company's page.
    #[validate(range(min = 0, max = 100000))]
    pub display_index: i32,
}

impl Resource for CompanyHighlights {
    type Entity = company_highlight::Entity;
    type Record = CompanyHighlightRecord;
    type Input = CompanyHighlightInput;

    const NAME: &'static str = "company_highlights";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns =
        Columns { sort: &["company_id", "display_index"], filter: &["company_id"], search: &[], computed: &[] };
    const IMAGES: &'static [ImageSlot] = &[ImageSlot::wide("image")];

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<company_highlight::Model>,
    ) -> Result<Vec<CompanyHighlightRecord>> {
        Ok(rows
            .into_iter()
            .map(|h| CompanyHighlightRecord {
                id: h.id,
                company_id: h.company_id,
                image: h.image,
                display_index: h.display_index,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: CompanyHighlightInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: company_highlight::Model,
        input: CompanyHighlightInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: company_highlight::ActiveModel,
    input: CompanyHighlightInput,
) -> Result<company_highlight::ActiveModel> {
    let company_id = input.company_id.unwrap_or_default();
    must_exist::<company::Entity, _>(txn, company_id, "company_id").await?;
    row.company_id = Set(company_id);
    row.image = Set(input.image.unwrap_or_default());
    row.display_index = Set(input.display_index);
    Ok(row)
}
