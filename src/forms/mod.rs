//! Typed inputs of forms that more than one edge reads (an API call and a page).

pub mod checks;
pub mod circle;
pub mod inquiry;
pub mod user_event;
