/** The `posters` console resource (server: `src/admin/api/resources/posters.rs`). */
import ImageIcon from '@mui/icons-material/Image';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'posters',
  search: true,
  sort: { field: 'number', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'world_id', kind: 'reference', reference: 'worlds', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'number', kind: 'number', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'image', kind: 'image', input: true, list: true },
  ],
};

export default { ...pagesOf(spec), icon: ImageIcon };
