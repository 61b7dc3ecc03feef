//! The exhibitor's pages of one event after the win (issue 28 item 7), beside the entry history's
//! `/mypage/entry_history/{permalink}/apply`: `…/hub` (each slot's checklist with its deadlines in
//! Japan time and the action that completes each step), `…/catalog` (the slots' catalogue items,
//! added and changed by the owner until the catalogue closes) and `…/submissions[/{slot_id}]`
//! (the term, the newest submission with its check and inspection, and the owner's submit
//! form), and `…/preview/{slot_id}` (the slot's exhibitor page as visitors will see it). For the owners and members of circles holding a slot in the event; anyone else gets
//! the 404 page. The rules are the feature's (`crate::exhibit`).

mod catalog;
mod hub;
mod preview;
mod submissions;
mod views;

use rocket::Route;

/// The locale key part of a checklist step (`exhibit.hub.step.{key}`), for pages outside this
/// folder (the mypage dashboard).
pub(crate) fn step_key(kind: crate::exhibit::checklist::StepKind) -> String {
    crate::forms::snake(kind)
}

/// The pages' routes.
pub fn routes() -> Vec<Route> {
    [hub::routes(), catalog::routes(), submissions::routes(), preview::routes()].concat()
}
