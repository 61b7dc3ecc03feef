/** The `artists` console resource (server: `src/admin/api/resources/artists.rs`). */
import BrushIcon from '@mui/icons-material/Brush';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/** The people credited on worlds and concepts; one still credited cannot be deleted (409). */
export const spec: ResourceSpec = {
  name: 'artists',
  search: true,
  sort: { field: 'name_ja', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'use_count', kind: 'number', list: true },
  ],
};

export default { ...pagesOf(spec), icon: BrushIcon };
