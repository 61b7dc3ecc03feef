//! The store's API, mounted at `/api/v1/store`: the user's housing videos ([`housing_videos`]),
//! store items and purchases ([`items`]), paying for priced items by card ([`orders`]), box submissions
//! ([`box_submissions`]), the avatar maker's parts ([`avatar_parts`]), linking a VRChat
//! account ([`vrchat`]).
//! Same sign-in and error body as `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

pub mod avatar_parts;
pub mod box_submissions;
pub mod housing_videos;
pub mod items;
pub mod orders;
pub mod vrchat;

/// The OpenAPI operations of the store.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        housing_videos::list,
        housing_videos::create,
        housing_videos::discard,
        housing_videos::video,
        housing_videos::thumbnail,
        items::list_items,
        items::show_item,
        items::buy_item,
        items::purchases,
        items::download,
        items::my_items,
        items::create_item,
        items::update_item,
        items::sales,
        orders::open_order,
        orders::capture_order,
        orders::show_order,
        box_submissions::list_boxes,
        box_submissions::create_box,
        box_submissions::update_box,
        box_submissions::submit_box,
        box_submissions::discard_box,
        avatar_parts::list_parts,
        avatar_parts::show_part,
        avatar_parts::part_bundle,
        vrchat::show_link,
        vrchat::start_link,
        vrchat::verify_link,
        vrchat::unlink,
    ),
    tags((name = "store", description = "The store and the avatar side (issue 31), mounted at /api/v1/store"))
)]
pub struct Doc;
