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
    { source: 'image', kind: 'image', list: true },
    // The server takes the picture's address (a site path or an http(s) URL), not a file.
    { source: 'image', kind: 'text', required: true, input: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: CollectionsIcon };
