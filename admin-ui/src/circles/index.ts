/** The `circles` console resource (server: `src/admin/api/resources/circles.rs`). */
import GroupsIcon from '@mui/icons-material/Groups';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'circles',
  search: true,
  sort: { field: 'updated_at', order: 'DESC' },
  actions: 'edit',
  // No bulk actions: suspending takes a reason (the edit page), and a bulk change must be
  // undoable in bulk (resources.test.ts).
  fields: [
    { source: 'name_ja', kind: 'text', list: true, sortable: true },
    { source: 'name_en', kind: 'text', list: true, sortable: true },
    { source: 'owner_vmarket_id', kind: 'text', list: true },
    { source: 'member_count', kind: 'number', list: true },
    { source: 'is_suspended', kind: 'boolean', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'suspension_reason', kind: 'multiline', input: true },
    { source: 'description_ja', kind: 'multiline' },
    { source: 'description_en', kind: 'multiline' },
    { source: 'website_link', kind: 'url' },
    { source: 'thumbnail', kind: 'image' },
    { source: 'created_at', kind: 'datetime', sortable: true },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: GroupsIcon };
