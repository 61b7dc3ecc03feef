//! The store's API, mounted at `/api/v1/store`: the user's housing videos ([`housing_videos`]),
//! store items and purchases ([`items`]), sellers' pictures of their items ([`item_images`]) and
//! their sets ([`item_sets`]), paying for priced items by card ([`orders`]), box submissions
//! ([`box_submissions`]), the avatar maker's parts ([`avatar_parts`]), linking a VRChat
//! account ([`vrchat`]), VRChat avatars and their orders ([`vrchat_avatars`]), and the converter
//! workers' protocol ([`converter`], authenticated by the worker key, not a user).
//! Same sign-in and error body as `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

pub mod avatar_parts;
pub mod box_submissions;
pub mod converter;
pub mod housing_videos;
pub mod item_images;
pub mod item_sets;
pub mod items;
pub mod orders;
pub mod vrchat;
pub mod vrchat_avatars;

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
        item_images::add_image,
        item_images::remove_image,
        item_sets::set_items,
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
        vrchat_avatars::list_avatars,
        vrchat_avatars::create_avatar_order,
        vrchat_avatars::show_avatar_order,
        vrchat_avatars::pay_avatar_order,
        vrchat_avatars::cancel_avatar_order,
        vrchat_avatars::cancel_avatar,
        vrchat_avatars::retry_upload,
        converter::claim,
        converter::source,
        converter::progress,
        converter::result,
        converter::uploaded,
        converter::failure,
    ),
    tags((name = "store", description = "The store and the avatar side (issue 31), mounted at /api/v1/store"),
         (name = "converter", description = "The converter workers' protocol (issue 31), mounted at /api/v1/store/converter; authenticated by the worker key"))
)]
pub struct Doc;
