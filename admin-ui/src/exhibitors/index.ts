/** The `exhibitors` console resource (server: `src/admin/api/resources/exhibitors.rs`). */
import StorefrontIcon from '@mui/icons-material/Storefront';
import { CONCEPT_KINDS } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'exhibitors',
  search: true,
  sort: { field: 'display_index', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'kind', kind: 'select', choices: CONCEPT_KINDS, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'circle_id', kind: 'reference', reference: 'circles', input: true, list: true, filter: true },
    { source: 'company_id', kind: 'reference', reference: 'companies', input: true, list: true, filter: true },
    { source: 'world_id', kind: 'reference', reference: 'worlds', input: true, list: true, filter: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: StorefrontIcon };
