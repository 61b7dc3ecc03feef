//! Demo inquiry categories (`data/inquiry_categories.json`, in display order). They are seeded
//! with no Slack webhook and no Jira project (there is no real Slack or Jira here), so demo
//! inquiries are stored only; staff add the targets per category (`slack_webhook_url`,
//! `jira_project_code`, `jira_issue_type_id`, `jira_parent_issue`) — see the README.

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use super::data::{Reader, Source};
use crate::db::entities::inquiry_category;
use crate::error::Result;

/// The file.
const FILE: Source = Source { name: "inquiry_categories.json", text: include_str!("data/inquiry_categories.json") };

/// One category.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategorySeed {
    name_ja: String,
    name_en: String,
}

/// Reads `inquiry_categories.json`.
pub fn load() -> Result<Vec<CategorySeed>> {
    let mut file = Reader::open(FILE)?;
    let categories = file.list("categories")?;
    file.finish()?;
    Ok(categories)
}

/// Writes the categories that are missing (matched by Japanese name); returns how many.
pub async fn categories(db: &impl ConnectionTrait) -> Result<usize> {
    write(db, &load()?).await
}

/// Writes those of `categories` that are missing; returns how many.
pub(super) async fn write(db: &impl ConnectionTrait, categories: &[CategorySeed]) -> Result<usize> {
    let mut created = 0;
    for (order, c) in categories.iter().enumerate() {
        let exists = inquiry_category::Entity::find()
            .filter(inquiry_category::Column::NameJa.eq(&c.name_ja))
            .one(db)
            .await?
            .is_some();
        if exists {
            continue;
        }
        inquiry_category::ActiveModel {
            name_ja: Set(c.name_ja.clone()),
            name_en: Set(c.name_en.clone()),
            slack_webhook_url: Set(None),
            jira_project_code: Set(None),
            jira_issue_type_id: Set(None),
            jira_parent_issue: Set(None),
            is_public: Set(true),
            display_order: Set(order as i32 + 1),
            ..Default::default()
        }
        .insert(db)
        .await?;
        created += 1;
    }
    Ok(created)
}
