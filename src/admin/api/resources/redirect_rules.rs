//! `redirect_rules`: site-wide short links (`/{slug}` → a site path or an http(s) URL).

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use validator::{Validate, ValidationError};

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::redirect_rule;
use crate::error::{Error, Result};
use crate::model::redirect::RuleTarget;

/// The resource.
pub struct RedirectRules;

/// A rule as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct RedirectRuleRecord {
    /// Rule id.
    pub id: i32,
    /// The slug (lower-case).
    pub slug: String,
    /// A site path or an http(s) URL.
    pub target: String,
    /// 301 rather than 302.
    pub permanent: bool,
    /// Applied.
    pub is_active: bool,
}

/// What staff send for a rule.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct RedirectRuleInput {
    /// The slug: letters, digits, `_`, `-`.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "input::permalink"))]
    pub slug: Option<String>,
    /// A site path (`/2026Winter/worlds`) or an http(s) URL.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 2048), custom(function = "rule_target"))]
    pub target: Option<String>,
    /// 301 rather than 302.
    pub permanent: bool,
    /// Applied.
    pub is_active: bool,
}

fn rule_target(value: &str) -> std::result::Result<(), ValidationError> {
    RuleTarget::parse(value).map(|_| ()).ok_or_else(|| ValidationError::new("redirect_target"))
}

impl Resource for RedirectRules {
    type Entity = redirect_rule::Entity;
    type Record = RedirectRuleRecord;
    type Input = RedirectRuleInput;

    const NAME: &'static str = "redirect_rules";
    const AREA: Area = Area::Support;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["slug", "target", "is_active"],
        filter: &["is_active", "permanent", "slug"],
        search: &["slug", "target"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<redirect_rule::Model>,
    ) -> Result<Vec<RedirectRuleRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| RedirectRuleRecord {
                id: r.id,
                slug: r.slug,
                target: r.target,
                permanent: r.permanent,
                is_active: r.is_active,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: RedirectRuleInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input, None).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: redirect_rule::Model,
        input: RedirectRuleInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        let id = row.id;
        fill(txn, row.into(), input, Some(id)).await?.update(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: redirect_rule::ActiveModel,
    input: RedirectRuleInput,
    id: Option<i32>,
) -> Result<redirect_rule::ActiveModel> {
    let slug = input.slug.unwrap_or_default().to_ascii_lowercase();
    let taken = redirect_rule::Entity::find()
        .filter(redirect_rule::Column::Slug.eq(slug.as_str()))
        .one(txn)
        .await?
        .is_some_and(|other| Some(other.id) != id);
    if taken {
        return Err(Error::invalid("slug", "validation.taken"));
    }
    row.slug = Set(slug);
    row.target = Set(input.target.unwrap_or_default());
    row.permanent = Set(input.permanent);
    row.is_active = Set(input.is_active);
    Ok(row)
}
