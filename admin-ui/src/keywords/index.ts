/** The `keywords` console resource (server: `src/admin/api/resources/keywords.rs`). */
import TagIcon from '@mui/icons-material/Tag';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/** The shared keywords worlds and concepts are tagged with; one in use cannot be deleted (409). */
export const spec: ResourceSpec = {
  name: 'keywords',
  search: true,
  sort: { field: 'name_ja', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'use_count', kind: 'number', list: true },
  ],
};

export default { ...pagesOf(spec), icon: TagIcon };
