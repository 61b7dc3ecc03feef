/**
 * The closed vocabularies the server sends (snake_case), as react-admin choices whose names are
 * catalogue keys (react-admin translates them). Values follow the Rust enums named beside each.
 */

/** A react-admin choice: the wire value and the catalogue key of its label. */
export interface Choice {
  id: string;
  name: string;
}

function choices(prefix: string, values: string[]): Choice[] {
  return values.map((id) => ({ id, name: `${prefix}.${id}` }));
}

/** `model::phase::PhaseType`. */
export const PHASE_TYPES = choices('phases', [
  'entry_start',
  'entry_end',
  'first_lottery_start',
  'first_lottery_end',
  'first_payment_start',
  'first_payment_end',
  'second_lottery_start',
  'second_lottery_end',
  'second_payment_start',
  'second_payment_end',
  'vkettools_open',
  'submission_start',
  'auto_build_start',
  'submission_end',
  'vmarket_tools_submission_end',
  'inspection_start',
  'inspection_end',
  'catalog_open',
  'company_catalog_open',
  'event_open',
  'event_close',
  'public_open',
  'display_entry',
  'display_first_lottery',
  'display_first_payment',
  'display_second_lottery',
  'display_second_payment',
  'display_submission_start',
  'display_submission_end',
  'none',
]);
/** `types::kinds::Platform`. */
export const PLATFORMS = choices('platforms', ['pc', 'cross_platform', 'none']);
/** `types::kinds::Venue`. */
export const VENUES = choices('venues', ['vrc', 'vmarket_cloud', 'none']);
/** `types::kinds::WorldArtistCategory`. */
export const WORLD_ARTIST_CATEGORIES = choices('artist_categories', ['world_modeler', 'bgm_composer', 'logo_designer']);
/** `types::kinds::ConceptArtistCategory`. */
export const CONCEPT_ARTIST_CATEGORIES = choices('artist_categories', ['art_designer']);
/** `types::kinds::ConceptKind`. */
export const CONCEPT_KINDS = choices('admin.choices.concept_kind', ['general', 'company', 'cross', 'browser']);
/** `hub_notification::HubLocale`. */
export const HUB_LOCALES = choices('admin.choices.hub_locale', ['jp', 'global']);
/** `hub_notification::HubCategory`. */
export const HUB_CATEGORIES = choices('hub.categories', [
  'official_stream',
  'event_in_metaverse',
  'campaign',
  'user_event',
]);
/** `ambassador::TeamType`. */
export const TEAM_TYPES = choices('admin.choices.team_type', ['japan_team', 'global_team']);
/** `user::UserAttribute`. */
export const USER_ATTRIBUTES = choices('admin.choices.attribute', ['none', 'certificated_streamer']);
/** `user::Role`. */
export const ROLES = choices('admin.choices.role', ['none', 'admin', 'director', 'uc_staff', 'qa_tester']);
/** `inquiry::Handling`. */
export const HANDLING = choices('admin.choices.handling', ['open', 'in_progress', 'resolved']);
/** `inquiry::ForwardStatus`. */
export const FORWARD_STATUS = choices('admin.choices.forward_status', ['none', 'pending', 'sent', 'failed']);
/** `model::inquiry::InquiryStatus`. */
export const INQUIRY_STATUS = choices('admin.choices.inquiry_status', ['received', 'pending', 'sent', 'failed']);
/** The inquiries' computed `forwarding` filter. */
export const FORWARDING = choices('admin.choices.forwarding', ['failed', 'pending', 'sent', 'none']);
/** Inquiry languages. */
export const LANGS = choices('admin.choices.lang', ['ja', 'en']);
/** Audit actions (`permissions::Action` of writes). */
export const AUDIT_ACTIONS = choices('admin.choices.audit_action', ['create', 'edit', 'delete', 'reconcile']);

/** `db::entities::event_entry_application::LotteryStatus`. */
export const LOTTERY_STATUSES = choices('admin.choices.lottery_status', [
  'applied',
  'first_win',
  'first_lost',
  'first_win_unpaid',
  'second_win',
  'second_lost',
  'second_win_unpaid',
  'lost',
  'win',
  'paid',
  'decline',
  'incorrect',
]);
/** `model::entry_status::LotteryType`. */
export const LOTTERY_TYPES = choices('admin.choices.lottery_type', [
  'applied',
  'first_lottery',
  'first_win_payment',
  'first_lost',
  'second_lottery',
  'second_win_payment',
  'adjusting',
  'unpaid',
  'win',
  'win_paid',
  'lost',
  'incorrect',
]);
/** `LotteryRound`. */
export const LOTTERY_ROUNDS = choices('admin.choices.lottery_round', ['first', 'second']);
/** `db::entities::lottery_run::LotteryRunState`. */
export const LOTTERY_RUN_STATES = choices('admin.choices.lottery_run_state', ['committed', 'preview', 'published']);
/** `ExhibitionCategory`. */
export const EXHIBITION_CATEGORIES = choices('admin.choices.exhibition_category', ['space', 'item', 'avatar']);
/** `model::entry_plan::RateLabel`. */
export const RATE_LABELS = choices('admin.choices.rate_label', ['normal', 'nearly_full', 'over_capacity']);
/** `db::entities::order::PaymentType`. */
export const PAYMENT_TYPES = choices('admin.choices.payment_type', ['stripe', 'paypal', 'smbc_gmo']);
/** `db::entities::order::OrderState`. */
export const ORDER_STATES = choices('admin.choices.order_state', ['pending', 'captured', 'failed', 'expired']);

/** The uploader's upload kinds (asset setting labels). */
export const ASSET_KINDS = choices('admin.choices.asset_kind', [
  'avatar',
  'furniture',
  'scene_asset',
  'avatar_part_bundle',
  'booth_package',
  'housing_video',
  'booth_scene',
]);

/** The kinds of file the analysers tell from the bytes (`assets::analyse::Kind`). */
export const FILE_KINDS = choices('admin.choices.file_kind', [
  'glb',
  'gltf',
  'vrm',
  'png',
  'jpeg',
  'gif',
  'webp',
  'ogg',
  'mp3',
  'wav',
  'flac',
  'zip',
  'mp4',
  'mov',
  'webm',
  'matroska',
]);

/** The type an upload kind gives its assets (`db::entities::asset_setting::AssetType`). */
export const ASSET_TYPES = choices('admin.choices.asset_type', ['none', 'avatar', 'zip', 'furniture']);

/** Where an asset version stands (the site's own labels). */
export const UPLOAD_STATUSES = choices('booth_maker.status', [
  'waiting',
  'analyzing',
  'validating',
  'converting',
  'uploaded',
  'failed',
  'expired',
]);

/** A report's verdict (the site's own labels). */
/** `db::entities::housing_video::ConvertStatus` (labels: the site's). */
export const CONVERT_STATUSES = choices('housing_videos.status', ['converting', 'finished', 'error']);

/** `db::entities::housing_video::DiscardStatus`. */
export const DISCARD_STATUSES = choices('admin.choices.discard_status', ['active', 'discarded']);

/** `db::entities::store_item::ProductCategory`. */
export const PRODUCT_CATEGORIES = choices('store.category', ['avatar', 'housing_furniture', 'avatar_part']);

/** `db::entities::avatar_part::PartType`. */
export const PART_TYPES = choices('avatar_parts.part_type', [
  'hair',
  'face',
  'eye',
  'ear',
  'bottoms',
  'tops',
  'onepiece',
  'shoes',
  'accessory',
]);

/** `db::entities::store_item::AccessibleStatus`. */
export const ACCESSIBLE_STATUSES = choices('store.status', ['private', 'limited', 'published']);

/** `db::entities::store_purchase::PurchaseStatus`. */
export const PURCHASE_STATUSES = choices('admin.choices.purchase_status', ['paid', 'refunded']);

/** Where a box submission stands (`box_submissions.status`). */
export const BOX_STATUSES = choices('box.status', [
  'not_published',
  'in_review',
  'review_approved',
  'review_rejected',
  'published',
]);

export const REPORT_STATUSES = choices('booth_maker.verdict', ['passed', 'warnings', 'failed']);

/** Where staff's inspection of a booth submission stands (`event_slot_submissions.inspection_status`). */
export const INSPECTION_STATUSES = choices('admin.choices.inspection_status', ['pending', 'passed', 'needs_fix']);

/** Which slots have (and how far) a submission. */
export const SUBMISSION_STATES = choices('admin.choices.submission_state', ['none', 'pending', 'passed', 'needs_fix']);

/** Where a VRChat avatar stands (`vrchat_avatars.status`). */
export const VRC_AVATAR_STATUSES = choices('vrchat_avatars.status', [
  'waiting',
  'converting',
  'converted',
  'uploading',
  'finished',
  'convert_failed',
  'upload_failed',
  'cancelled',
]);

/** Where a VRChat avatar order stands (`vrchat_avatar_orders.state`). */
export const VRC_ORDER_STATES = choices('vrchat_avatars.order_state', ['open', 'paid', 'expired', 'cancelled']);

/** What a VRChat avatar order buys. */
export const VRC_PURCHASE_TYPES = choices('vrchat_avatars.purchase_type', ['new', 'update']);

/** How a VRChat avatar order is paid. */
export const VRC_PAYMENT_TYPES = choices('vrchat_avatars.payment_type', ['paypal', 'gmo_payment']);
