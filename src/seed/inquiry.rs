//! Demo inquiry categories. They are seeded with no Slack webhook and no Jira project (there is
//! no real Slack or Jira here), so demo inquiries are stored only; staff add the targets per
//! category (`slack_webhook_url`, `jira_project_code`, `jira_issue_type_id`,
//! `jira_parent_issue`) — see the README.

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::db::entities::inquiry_category;
use crate::error::Result;

/// (Japanese name, English name), in display order.
const CATEGORIES: [(&str, &str); 6] = [
    ("出展について", "Exhibiting"),
    ("お支払いについて", "Payments"),
    ("入稿・ツールについて", "Submission tools"),
    ("取材・メディア", "Press"),
    ("不具合の報告", "Bug reports"),
    ("その他", "Other"),
];

/// Writes the categories that are missing (matched by Japanese name); returns how many.
pub async fn categories(db: &impl ConnectionTrait) -> Result<usize> {
    let mut created = 0;
    for (order, (ja, en)) in CATEGORIES.iter().enumerate() {
        let exists =
            inquiry_category::Entity::find().filter(inquiry_category::Column::NameJa.eq(*ja)).one(db).await?.is_some();
        if exists {
            continue;
        }
        inquiry_category::ActiveModel {
            name_ja: Set((*ja).into()),
            name_en: Set((*en).into()),
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
