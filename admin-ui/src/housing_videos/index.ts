/** The `housing_videos` console resource (server: `src/admin/api/resources/housing_videos.rs`). */
import MovieIcon from '@mui/icons-material/Movie';
import { CONVERT_STATUSES, DISCARD_STATUSES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/** Users' housing videos and their conversion; read only (the owner converts and discards). */
export const spec: ResourceSpec = {
  name: 'housing_videos',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'read',
  fields: [
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'video_filename', kind: 'text', list: true },
    { source: 'convert_status', kind: 'select', choices: CONVERT_STATUSES, list: true, sortable: true, filter: true },
    { source: 'convert_error', kind: 'text', list: true, filter: true, emptyText: 'admin.none' },
    { source: 'discard_status', kind: 'select', choices: DISCARD_STATUSES, list: true, filter: true },
    { source: 'uuid', kind: 'text' },
    { source: 'asset_version_id', kind: 'reference', reference: 'asset_versions' },
    { source: 'convert_attempts', kind: 'number' },
    { source: 'converted_bytes', kind: 'number', emptyText: 'admin.none' },
    { source: 'duration_ms', kind: 'number', emptyText: 'admin.none' },
    { source: 'width', kind: 'number', emptyText: 'admin.none' },
    { source: 'height', kind: 'number', emptyText: 'admin.none' },
    { source: 'converted_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'discarded_at', kind: 'datetime', emptyText: 'admin.none' },
  ],
};

export default { ...pagesOf(spec), icon: MovieIcon };
