/** The `companies` console resource (server: `src/admin/api/resources/companies.rs`). */
import BusinessIcon from '@mui/icons-material/Business';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'companies',
  search: true,
  sort: { field: 'display_index', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'description_ja', kind: 'multiline', input: true },
    { source: 'description_en', kind: 'multiline', input: true },
    { source: 'website_link', kind: 'url', input: true },
    { source: 'site_name_ja', kind: 'text', input: true },
    { source: 'site_name_en', kind: 'text', input: true },
    { source: 'vmarket_cloud_url', kind: 'url', input: true },
    { source: 'is_public', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'highlight_count', kind: 'number', list: true },
    { source: 'item_count', kind: 'number', list: true },
    { source: 'thumbnail', kind: 'image', input: true, list: true },
  ],
};

export default { ...pagesOf(spec), icon: BusinessIcon };
