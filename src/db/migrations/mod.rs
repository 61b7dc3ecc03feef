//! Schema migrations, applied in order on start and by `vmarket migrate`: one file per
//! migration, listed here; what several of them build (foreign keys, indexes, the search index)
//! is in `statements.rs`.

use sea_orm_migration::prelude::*;

mod m20261121_000001_events_and_worlds;
mod m20261122_000010_accounts_and_users;
mod m20261122_000100_link_previews;
mod m20261122_000200_inquiries;
mod m20261122_000300_catalog;
mod m20261122_000400_hub;
mod m20261122_000500_redirects;
mod m20261122_000600_exhibitor_notifications;
mod m20261123_000700_sign_in_hardening;
mod m20261123_000800_mails;
mod m20261124_000900_circles;
mod m20261124_001000_staff_console;
mod m20261125_001000_entries;
mod m20261125_001100_lottery_secret;
mod m20261126_001300_payments;
mod m20261127_001400_lottery_result_mails;
mod m20261127_001410_lottery_results;
mod m20261127_001420_application_status_writes;
mod m20261127_001600_data_version;
mod m20261127_001801_order_provider_link;
pub mod m20261128_001900_money_rows_kept;
mod m20261128_001910_lottery_run_actors;
mod m20261129_002000_assets;
mod m20261130_002100_exhibit;
mod m20261201_002200_submissions;
mod m20261202_002300_ingame_sign_in;
mod m20261202_002310_ingame_people;
mod m20261202_002320_password_resets;
mod m20261202_002330_ingame_emotes;
mod m20261203_002400_ingame_chat;
mod m20261203_002410_circle_suspension_reason;
mod m20261204_002500_entry_terms;
mod m20261204_002510_receipt_addressees;
mod m20261205_002600_rate_limits;
mod m20261206_002700_booth_maker;
mod m20261207_002800_housing_videos;
mod m20261208_002900_store_items;
mod m20261209_003000_store_orders;
mod m20261210_003100_box_submissions;
mod m20261211_003200_avatar_parts;
mod m20261212_003300_vrchat_links;
mod m20261213_003400_vrchat_avatars;
mod m20261214_003500_store_item_images;
mod m20261215_003600_store_item_sets;
mod m20261216_003700_store_order_providers;
mod statements;

/// The list of every migration the schema is built from.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_events_and_worlds::Migration),
            Box::new(m20261122_000010_accounts_and_users::Migration),
            Box::new(m20261122_000100_link_previews::Migration),
            Box::new(m20261122_000200_inquiries::Migration),
            Box::new(m20261122_000300_catalog::Migration),
            Box::new(m20261122_000400_hub::Migration),
            Box::new(m20261122_000500_redirects::Migration),
            Box::new(m20261122_000600_exhibitor_notifications::Migration),
            Box::new(m20261123_000700_sign_in_hardening::Migration),
            Box::new(m20261123_000800_mails::Migration),
            Box::new(m20261124_000900_circles::Migration),
            Box::new(m20261124_001000_staff_console::Migration),
            Box::new(m20261125_001000_entries::Migration),
            Box::new(m20261125_001100_lottery_secret::Migration),
            Box::new(m20261126_001300_payments::Migration),
            Box::new(m20261127_001400_lottery_result_mails::Migration),
            Box::new(m20261127_001410_lottery_results::Migration),
            Box::new(m20261127_001420_application_status_writes::Migration),
            Box::new(m20261127_001600_data_version::Migration),
            Box::new(m20261127_001801_order_provider_link::Migration),
            Box::new(m20261128_001900_money_rows_kept::Migration),
            Box::new(m20261128_001910_lottery_run_actors::Migration),
            Box::new(m20261129_002000_assets::Migration),
            Box::new(m20261130_002100_exhibit::Migration),
            Box::new(m20261201_002200_submissions::Migration),
            Box::new(m20261202_002300_ingame_sign_in::Migration),
            Box::new(m20261202_002310_ingame_people::Migration),
            Box::new(m20261202_002320_password_resets::Migration),
            Box::new(m20261202_002330_ingame_emotes::Migration),
            Box::new(m20261203_002400_ingame_chat::Migration),
            Box::new(m20261203_002410_circle_suspension_reason::Migration),
            Box::new(m20261204_002500_entry_terms::Migration),
            Box::new(m20261204_002510_receipt_addressees::Migration),
            Box::new(m20261205_002600_rate_limits::Migration),
            Box::new(m20261206_002700_booth_maker::Migration),
            Box::new(m20261207_002800_housing_videos::Migration),
            Box::new(m20261208_002900_store_items::Migration),
            Box::new(m20261209_003000_store_orders::Migration),
            Box::new(m20261210_003100_box_submissions::Migration),
            Box::new(m20261211_003200_avatar_parts::Migration),
            Box::new(m20261212_003300_vrchat_links::Migration),
            Box::new(m20261213_003400_vrchat_avatars::Migration),
            Box::new(m20261214_003500_store_item_images::Migration),
            Box::new(m20261215_003600_store_item_sets::Migration),
            Box::new(m20261216_003700_store_order_providers::Migration),
        ]
    }
}
