//! The console's resources, one file each. Adding one: a file with a [`Resource`] impl, a line
//! in [`ALL`], and its folder in `admin-ui/src/<name>/` (registered in `admin-ui/src/resources.ts`).
//!
//! [`Resource`]: crate::admin::api::resource::Resource

pub mod ambassadors;
pub mod applications;
pub mod artists;
pub mod asset_rule_sets;
pub mod asset_settings;
pub mod asset_versions;
pub mod audit_log;
pub mod avatar_parts;
pub mod box_submissions;
pub mod catalog_item_categories;
pub mod catalog_items;
pub mod circles;
pub mod companies;
pub mod company_highlights;
pub mod concepts;
pub mod credits;
pub mod entries;
pub mod entry_plans;
pub mod event_slots;
pub mod events;
pub mod exhibitor_notifications;
pub mod exhibitors;
pub mod housing_scenes;
pub mod housing_videos;
pub mod hub_notifications;
pub mod hub_tags;
pub mod ingame_chat_blocks;
pub mod ingame_chat_messages;
pub mod ingame_emotes;
pub mod inquiries;
pub mod inquiry_categories;
pub mod keywords;
pub mod lottery_runs;
pub mod names;
pub mod payments;
pub mod posters;
pub mod preset_homes;
pub mod redirect_rules;
pub mod slot_submissions;
pub mod store_items;
pub mod store_purchases;
pub mod streamers;
pub mod tool_releases;
pub mod users;
pub mod vrc_redirects;
pub mod vrchat_account_links;
pub mod vrchat_avatar_orders;
pub mod vrchat_avatars;
pub mod worlds;

use crate::admin::api::registered::Registered;
use crate::admin::api::registered::registered;

/// Every console resource, in menu order.
pub const ALL: &[Registered] = &[
    registered::<events::Events>(),
    registered::<concepts::Concepts>(),
    registered::<worlds::Worlds>(),
    registered::<keywords::Keywords>(),
    registered::<artists::Artists>(),
    registered::<posters::Posters>(),
    registered::<companies::Companies>(),
    registered::<company_highlights::CompanyHighlights>(),
    registered::<exhibitors::Exhibitors>(),
    registered::<catalog_item_categories::CatalogItemCategories>(),
    registered::<catalog_items::CatalogItems>(),
    registered::<hub_notifications::HubNotifications>(),
    registered::<hub_tags::HubTags>(),
    registered::<ambassadors::Ambassadors>(),
    registered::<streamers::Streamers>(),
    registered::<exhibitor_notifications::ExhibitorNotifications>(),
    registered::<circles::Circles>(),
    registered::<entry_plans::EntryPlans>(),
    registered::<entries::Entries>(),
    registered::<applications::Applications>(),
    registered::<event_slots::EventSlots>(),
    registered::<slot_submissions::SlotSubmissions>(),
    registered::<tool_releases::ToolReleases>(),
    registered::<preset_homes::PresetHomes>(),
    registered::<housing_scenes::HousingScenes>(),
    registered::<housing_videos::HousingVideos>(),
    registered::<store_items::StoreItems>(),
    registered::<store_purchases::StorePurchases>(),
    registered::<box_submissions::BoxSubmissions>(),
    registered::<avatar_parts::AvatarParts>(),
    registered::<vrchat_account_links::VrchatAccountLinks>(),
    registered::<vrchat_avatars::VrchatAvatars>(),
    registered::<vrchat_avatar_orders::VrchatAvatarOrders>(),
    registered::<ingame_emotes::IngameEmotes>(),
    registered::<ingame_chat_messages::IngameChatMessages>(),
    registered::<ingame_chat_blocks::IngameChatBlocks>(),
    registered::<lottery_runs::LotteryRuns>(),
    registered::<payments::Payments>(),
    registered::<inquiries::Inquiries>(),
    registered::<inquiry_categories::InquiryCategories>(),
    registered::<redirect_rules::RedirectRules>(),
    registered::<vrc_redirects::VrcRedirects>(),
    registered::<asset_versions::AssetVersions>(),
    registered::<asset_settings::AssetSettings>(),
    registered::<asset_rule_sets::AssetRuleSets>(),
    registered::<users::Users>(),
    registered::<audit_log::AuditLog>(),
];
