/** The `entry_plans` console resource (server: `src/admin/api/resources/entry_plans.rs`). */
import RequestQuoteIcon from '@mui/icons-material/RequestQuote';
import { EXHIBITION_CATEGORIES, RATE_LABELS } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/** An event's plans with their world, slots and fee; one circles applied for cannot be deleted (409). */
export const spec: ResourceSpec = {
  name: 'entry_plans',
  search: true,
  sort: { field: 'display_order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'world_id', kind: 'reference', reference: 'worlds', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'exhibition_category', kind: 'select', choices: EXHIBITION_CATEGORIES, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'maximum', kind: 'number', required: true, input: true, list: true, sortable: true },
    { source: 'fee', kind: 'yen', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'preview_world_launch_url', kind: 'url', input: true },
    { source: 'display_order', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'application_count', kind: 'number', list: true },
    { source: 'rate_label', kind: 'select', choices: RATE_LABELS, list: true },
    { source: 'created_at', kind: 'datetime' },
    { source: 'updated_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: RequestQuoteIcon };
