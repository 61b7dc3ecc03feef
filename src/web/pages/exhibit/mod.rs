//! The exhibitor's pages of one event after the win (issue 28 item 7), beside the entry history's
//! `/mypage/entry_history/{permalink}/apply`: `…/hub` (each slot's checklist with its deadlines in
//! Japan time and the action that completes each step), `…/catalog` (the slots' catalogue items,
//! added and changed by the owner until the catalogue closes) and `…/submissions[/{slot_id}]`
//! (the term, the newest submission with its check and inspection, and the owner's submit
//! form). For the owners and members of circles holding a slot in the event; anyone else gets
//! the 404 page. The rules are the feature's (`crate::exhibit`).

mod catalog;
mod hub;
mod submissions;
mod views;

use rocket::Route;

/// The pages' routes.
pub fn routes() -> Vec<Route> {
    [hub::routes(), catalog::routes(), submissions::routes()].concat()
}
