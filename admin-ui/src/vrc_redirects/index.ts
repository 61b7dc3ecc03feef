/** The `vrc_redirects` console resource (server: `src/admin/api/resources/vrc_redirects.rs`). */
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'vrc_redirects',
  search: true,
  sort: { field: 'url_key', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'url_key', kind: 'text', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'url', kind: 'url', required: true, input: true, list: true },
    { source: 'description_ja', kind: 'text', input: true, list: true },
    { source: 'description_en', kind: 'text', input: true },
  ],
};

export default { ...pagesOf(spec), icon: OpenInNewIcon };
