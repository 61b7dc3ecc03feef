//! The integration test binary: every test runs the whole application in process against a
//! fresh database (SQLite, or PostgreSQL when `VMARKET_TEST_DATABASE_URL` is set).

mod access;
mod admin;
mod api;
mod api_contract;
mod auth;
mod catalog;
mod catalog_api;
mod catalog_search;
mod circle_pages;
mod circles;
mod circles_access;
mod demo_accounts;
mod errors;
mod exhibitor_news;
mod hub;
mod hub_api;
mod inquiry;
mod layers;
mod locale;
mod mail;
mod my_events;
mod ogp;
mod pages;
mod params;
mod phases;
mod process;
mod redirects;
mod security;
mod seed;
mod support;
mod tokens;
mod user_hub;
mod validation;
