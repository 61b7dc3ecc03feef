//! Server-rendered pages: locale routing, Tera helpers, error pages, the page handlers per
//! route module and the browser routes of sign-in (`/auth/…`). What pages share with the API lives in `http`; `web` imports nothing of `api`.

pub mod errors;
pub mod headers;
pub mod locale;
pub mod open_windows;
pub mod page;
pub mod pager;
pub mod pages;
pub mod sign_in;
