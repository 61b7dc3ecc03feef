/** The `company_highlights` console resource (server: `src/admin/api/resources/company_highlights.rs`). */
import CollectionsIcon from '@mui/icons-material/Collections';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'company_highlights',
  sort: { field: 'display_index', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'company_id', kind: 'reference', reference: 'companies', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'image', kind: 'image', required: true, input: true, list: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: CollectionsIcon };
