//! What the demo catalogue file (`data/catalogue.json`) holds, read as it is; checked and
//! written by `catalog`, turned into circles and items by `exhibitors`, into companies by
//! `companies`.

use serde::Deserialize;

use super::data::{self, Reader, Source};
use crate::error::Result;
use crate::model::catalog::CategoryGroupType;

/// The file.
pub(super) const FILE: Source = Source { name: "catalogue.json", text: include_str!("data/catalogue.json") };

/// A `[Japanese, English]` pair.
pub(super) type Pair = [String; 2];

/// The contents of `catalogue.json`.
pub struct Catalogue {
    pub(super) groups: Vec<GroupSeed>,
    /// The general categories with their vocabulary, in display order.
    pub(super) lines: Vec<LineSeed>,
    /// The company categories, in display order.
    pub(super) company: Vec<CategorySeed>,
    pub(super) circles: CirclesSeed,
    pub(super) companies: Vec<CompanySeed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GroupSeed {
    pub(super) id: i32,
    #[serde(rename = "type")]
    pub(super) group_type: CategoryGroupType,
    pub(super) name_ja: String,
    pub(super) name_en: String,
}

/// A general category and the words its items are made of.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LineSeed {
    pub(super) id: i32,
    pub(super) key: String,
    pub(super) name_ja: String,
    pub(super) name_en: String,
    /// Prices in yen: `price_from` plus 100 × (0 … `price_steps` − 1).
    pub(super) price_from: i32,
    pub(super) price_steps: i32,
    /// The first sentence of the description of a circle with this specialty.
    pub(super) circle_intro: Pair,
    pub(super) products: Vec<Pair>,
    /// Variants, added to a product's name from its second appearance on.
    pub(super) variants: Vec<Pair>,
    pub(super) descriptions: Vec<Pair>,
}

/// A company category; company items name it by `key`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CategorySeed {
    pub(super) id: i32,
    pub(super) key: String,
    pub(super) name_ja: String,
    pub(super) name_en: String,
}

/// The words of the circle pool: every prefix meets one suffix, so there are
/// `prefixes × suffixes` circles.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CirclesSeed {
    pub(super) prefixes: Vec<Pair>,
    pub(super) suffixes: Vec<Pair>,
    /// Second sentences of circle descriptions.
    pub(super) notes: Vec<Pair>,
    pub(super) thumbnails: Vec<String>,
    /// English names of the circles staff have suspended (they disappear from the catalogue).
    pub(super) suspended: Vec<String>,
}

/// A company and its items.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CompanySeed {
    /// The corporate world it exhibits in (`events.json`).
    pub(super) world_id: i32,
    /// The name of its art under `/static/demo/brands/` and of its booth in the cloud.
    pub(super) brand: String,
    pub(super) name_ja: String,
    pub(super) name_en: String,
    pub(super) description_ja: String,
    pub(super) description_en: String,
    pub(super) site_name_ja: String,
    pub(super) site_name_en: String,
    pub(super) items: Vec<CompanyItemSeed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CompanyItemSeed {
    /// The key of a company category.
    pub(super) category: String,
    pub(super) name_ja: String,
    pub(super) name_en: String,
    pub(super) description_ja: String,
    pub(super) description_en: String,
    pub(super) distributable: bool,
    pub(super) price: Option<i32>,
}

/// Reads `catalogue.json` as it is (`crate::seed::catalog::load` also checks it).
pub(super) fn read() -> Result<Catalogue> {
    let mut file = Reader::open(FILE)?;
    let catalogue = Catalogue {
        groups: file.list("groups")?,
        lines: file.list("general_categories")?,
        company: file.list("company_categories")?,
        circles: file.value("circles")?,
        companies: file.list("companies")?,
    };
    file.finish()?;
    Ok(catalogue)
}

impl Catalogue {
    /// The id of the group of type `t`.
    pub(super) fn group_id(&self, t: CategoryGroupType) -> Result<i32> {
        let group = self.groups.iter().find(|g| g.group_type == t);
        group.map(|g| g.id).ok_or_else(|| data::fail(FILE.name, format_args!("groups: no group of type {t:?}")))
    }
}

/// `Evening Calm Workshop` → `evening-calm-workshop`: a name as a host-name label.
pub(super) fn slug(en: &str) -> String {
    en.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}
