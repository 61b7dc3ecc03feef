/**
 * The resources of the console, in menu order. Each lives in its own folder (`src/<resource>/`)
 * whose `index.ts` exports `{ list, show, edit?, create?, icon }`; it is registered here with
 * its REST name under `/admin/api/<name>`. A plain list: one line per resource.
 */
import type { ResourceProps } from 'react-admin';
import ambassadors from './ambassadors';
import applications from './applications';
import artists from './artists';
import asset_rule_sets from './asset_rule_sets';
import asset_settings from './asset_settings';
import asset_versions from './asset_versions';
import audit_log from './audit_log';
import catalog_item_categories from './catalog_item_categories';
import catalog_items from './catalog_items';
import circles from './circles';
import companies from './companies';
import company_highlights from './company_highlights';
import concepts from './concepts';
import entries from './entries';
import entry_plans from './entry_plans';
import event_slots from './event_slots';
import slot_submissions from './slot_submissions';
import events from './events';
import exhibitor_notifications from './exhibitor_notifications';
import exhibitors from './exhibitors';
import hub_notifications from './hub_notifications';
import hub_tags from './hub_tags';
import inquiries from './inquiries';
import inquiry_categories from './inquiry_categories';
import keywords from './keywords';
import lottery_runs from './lottery_runs';
import payments from './payments';
import posters from './posters';
import redirect_rules from './redirect_rules';
import streamers from './streamers';
import tool_releases from './tool_releases';
import preset_homes from './preset_homes';
import housing_scenes from './housing_scenes';
import housing_videos from './housing_videos';
import avatar_parts from './avatar_parts';
import vrchat_account_links from './vrchat_account_links';
import vrchat_avatars from './vrchat_avatars';
import vrchat_avatar_orders from './vrchat_avatar_orders';
import box_submissions from './box_submissions';
import store_items from './store_items';
import store_purchases from './store_purchases';
import ingame_emotes from './ingame_emotes';
import ingame_chat_messages from './ingame_chat_messages';
import ingame_chat_blocks from './ingame_chat_blocks';
import users from './users';
import vrc_redirects from './vrc_redirects';
import worlds from './worlds';

export const RESOURCES: ResourceProps[] = [
  { name: 'events', ...events },
  { name: 'concepts', ...concepts },
  { name: 'worlds', ...worlds },
  { name: 'keywords', ...keywords },
  { name: 'artists', ...artists },
  { name: 'posters', ...posters },
  { name: 'companies', ...companies },
  { name: 'company_highlights', ...company_highlights },
  { name: 'exhibitors', ...exhibitors },
  { name: 'catalog_item_categories', ...catalog_item_categories },
  { name: 'catalog_items', ...catalog_items },
  { name: 'hub_notifications', ...hub_notifications },
  { name: 'hub_tags', ...hub_tags },
  { name: 'ambassadors', ...ambassadors },
  { name: 'streamers', ...streamers },
  { name: 'exhibitor_notifications', ...exhibitor_notifications },
  { name: 'circles', ...circles },
  { name: 'entry_plans', ...entry_plans },
  { name: 'entries', ...entries },
  { name: 'applications', ...applications },
  { name: 'event_slots', ...event_slots },
  { name: 'slot_submissions', ...slot_submissions },
  { name: 'tool_releases', ...tool_releases },
  { name: 'preset_homes', ...preset_homes },
  { name: 'housing_scenes', ...housing_scenes },
  { name: 'housing_videos', ...housing_videos },
  { name: 'store_items', ...store_items },
  { name: 'store_purchases', ...store_purchases },
  { name: 'box_submissions', ...box_submissions },
  { name: 'avatar_parts', ...avatar_parts },
  { name: 'vrchat_account_links', ...vrchat_account_links },
  { name: 'vrchat_avatars', ...vrchat_avatars },
  { name: 'vrchat_avatar_orders', ...vrchat_avatar_orders },
  { name: 'ingame_emotes', ...ingame_emotes },
  { name: 'ingame_chat_messages', ...ingame_chat_messages },
  { name: 'ingame_chat_blocks', ...ingame_chat_blocks },
  { name: 'lottery_runs', ...lottery_runs },
  { name: 'payments', ...payments },
  { name: 'inquiries', ...inquiries },
  { name: 'inquiry_categories', ...inquiry_categories },
  { name: 'redirect_rules', ...redirect_rules },
  { name: 'vrc_redirects', ...vrc_redirects },
  { name: 'asset_versions', ...asset_versions },
  { name: 'asset_settings', ...asset_settings },
  { name: 'asset_rule_sets', ...asset_rule_sets },
  { name: 'users', ...users },
  { name: 'audit_log', ...audit_log },
];
