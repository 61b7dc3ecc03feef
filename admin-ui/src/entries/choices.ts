/**
 * The closed vocabularies of entries and the lottery as react-admin choices whose names are
 * catalogue keys (`admin.choices.*`; react-admin translates them). Values follow the Rust enums
 * named beside each.
 */

export interface Choice {
  id: string;
  name: string;
}

function choices(group: string, values: string[]): Choice[] {
  return values.map((id) => ({ id, name: `admin.choices.${group}.${id}` }));
}

/** `db::entities::event_entry_application::LotteryStatus`. */
export const LOTTERY_STATUSES = choices('lottery_status', [
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
export const LOTTERY_TYPES = choices('lottery_type', [
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
export const LOTTERY_ROUNDS = choices('lottery_round', ['first', 'second']);

/** `db::entities::lottery_run::LotteryRunState`. */
export const LOTTERY_RUN_STATES = choices('lottery_run_state', ['committed', 'preview', 'published']);

/** `ExhibitionCategory`. */
export const EXHIBITION_CATEGORIES = choices('exhibition_category', ['space', 'item', 'avatar']);

/** `model::entry_plan::RateLabel`. */
export const RATE_LABELS = choices('rate_label', ['normal', 'nearly_full', 'over_capacity']);
