//! Server-rendered pages: locale routing, Tera helpers, error pages and the page handlers per
//! route module. What pages share with the API lives in `http`; `web` imports nothing of `api`.

pub mod cookies;
pub mod errors;
pub mod headers;
pub mod locale;
pub mod page;
pub mod pager;
pub mod pages;
