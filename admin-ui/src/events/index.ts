/** The `events` console resource (server: `src/admin/api/resources/events.rs`). */
import EventIcon from '@mui/icons-material/Event';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'events',
  search: true,
  sort: { field: 'version', order: 'DESC' },
  actions: 'crud',
  fields: [
    { source: 'permalink', kind: 'text', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'version', kind: 'number', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'theme_ja', kind: 'text', input: true },
    { source: 'theme_en', kind: 'text', input: true },
    { source: 'theme_description_ja', kind: 'multiline', input: true },
    { source: 'theme_description_en', kind: 'multiline', input: true },
    { source: 'is_public', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
    { source: 'is_entry_closed', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'exhibition_term_url', kind: 'url', input: true },
    { source: 'exhibition_guideline_url', kind: 'url', input: true },
    { source: 'submission_rule_url', kind: 'url', input: true },
    { source: 'image', kind: 'image', input: true },
    { source: 'logo', kind: 'image', input: true },
    { source: 'icon', kind: 'image', input: true },
    { source: 'first_view_image', kind: 'image', input: true },
    { source: 'phases', kind: 'phases', input: true, list: true },
    { source: 'created_at', kind: 'datetime' },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: EventIcon };
