/** The `redirect_rules` console resource (server: `src/admin/api/resources/redirect_rules.rs`). */
import ShortcutIcon from '@mui/icons-material/Shortcut';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'redirect_rules',
  search: true,
  sort: { field: 'slug', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'slug', kind: 'text', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'target', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'permanent', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'is_active', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
  ],
};

export default { ...pagesOf(spec), icon: ShortcutIcon };
