/** The `vrchat_avatars` console resource (server: `src/admin/api/resources/vrchat_avatars.rs`). */
import FaceIcon from '@mui/icons-material/Face';
import { VRC_AVATAR_STATUSES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/** Users' VRChat avatars and where their conversions stand; read only (they move by orders, owners and converters). */
export const spec: ResourceSpec = {
  name: 'vrchat_avatars',
  search: true,
  sort: { field: 'updated_at', order: 'DESC' },
  actions: 'read',
  fields: [
    { source: 'avatar_name', kind: 'text', list: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'status', kind: 'select', choices: VRC_AVATAR_STATUSES, list: true, filter: true, sortable: true },
    { source: 'remaining_uploads', kind: 'number', list: true },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
    { source: 'progress', kind: 'number' },
    { source: 'progress_note', kind: 'text', emptyText: 'admin.none' },
    { source: 'worker', kind: 'text', emptyText: 'admin.none' },
    { source: 'lease_until', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'attempts', kind: 'number' },
    { source: 'result_bytes', kind: 'number', emptyText: 'admin.none' },
    { source: 'vrchat_avatar_id', kind: 'text', emptyText: 'admin.none' },
    { source: 'failure_code', kind: 'text', emptyText: 'admin.none' },
    { source: 'failure_message', kind: 'multiline', emptyText: 'admin.none' },
    { source: 'asset_version_id', kind: 'reference', reference: 'asset_versions' },
    { source: 'uuid', kind: 'text' },
    { source: 'created_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: FaceIcon };
