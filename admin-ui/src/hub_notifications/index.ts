/** The `hub_notifications` console resource (server: `src/admin/api/resources/hub_notifications.rs`). */
import CampaignIcon from '@mui/icons-material/Campaign';
import { HUB_CATEGORIES, HUB_LOCALES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'hub_notifications',
  search: true,
  sort: { field: 'publish_at', order: 'DESC' },
  actions: 'crud',
  bulk: [
    { label: 'admin.bulk.publish', data: { is_public: true } },
    { label: 'admin.bulk.unpublish', data: { is_public: false } },
    { label: 'admin.bulk.recommend', data: { is_strong_recommended: true } },
    { label: 'admin.bulk.unrecommend', data: { is_strong_recommended: false } },
  ],
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'title', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'content', kind: 'multiline', required: true, input: true },
    { source: 'link_url', kind: 'url', input: true },
    { source: 'category', kind: 'select', choices: HUB_CATEGORIES, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'locale', kind: 'select', choices: HUB_LOCALES, required: true, input: true, list: true, filter: true },
    { source: 'publish_at', kind: 'datetime', required: true, input: true, list: true, sortable: true },
    { source: 'start_at', kind: 'datetime', required: true, input: true, list: true, sortable: true },
    { source: 'end_at', kind: 'datetime', input: true },
    { source: 'display_date', kind: 'datetime', input: true },
    { source: 'is_public', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
    { source: 'is_strong_recommended', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
    { source: 'is_official', kind: 'boolean', input: true, filter: true },
    { source: 'by_ambassador', kind: 'boolean', input: true },
    { source: 'is_certificated_stream', kind: 'boolean', input: true },
    { source: 'world_id', kind: 'reference', reference: 'worlds', input: true, filter: true },
    { source: 'hub_tag_ids', kind: 'tags', reference: 'hub_tags', input: true },
    { source: 'user_id', kind: 'number', filter: true },
    { source: 'thumbnail', kind: 'image', input: true },
    { source: 'created_at', kind: 'datetime' },
    { source: 'updated_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: CampaignIcon };
