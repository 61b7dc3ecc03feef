/** The `streamers` console resource (server: `src/admin/api/resources/streamers.rs`). */
import VideocamIcon from '@mui/icons-material/Videocam';
import { USER_ATTRIBUTES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'streamers',
  search: true,
  sort: { field: 'updated_at', order: 'DESC' },
  actions: 'edit',
  fields: [
    { source: 'vmarket_id', kind: 'text', list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', list: true },
    { source: 'name_en', kind: 'text', list: true },
    { source: 'icon', kind: 'image' },
    { source: 'attribute', kind: 'select', choices: USER_ATTRIBUTES, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: VideocamIcon };
