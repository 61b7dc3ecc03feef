/** The `box_submissions` console resource (server: `src/admin/api/resources/box_submissions.rs`). */
import Inventory2Icon from '@mui/icons-material/Inventory2';
import { modelPreview } from '../common/ModelPreview';
import { BOX_STATUSES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * Users' avatars submitted for display in a box. Staff review one in review by setting its
 * status: approved, or returned with the reason its owner reads; an approved one is published.
 * The submitted file and its report are the `asset_versions` record it names; the show page
 * draws the model in 3-D.
 */
export const spec: ResourceSpec = {
  name: 'box_submissions',
  search: true,
  sort: { field: 'submitted_at', order: 'DESC' },
  actions: 'edit',
  showFooter: modelPreview('box_submissions'),
  fields: [
    { source: 'name', kind: 'text', list: true },
    { source: 'author', kind: 'text', list: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'status', kind: 'select', choices: BOX_STATUSES, input: true, required: true, list: true, filter: true, alwaysOn: true },
    { source: 'rejected_reason', kind: 'multiline', input: true, emptyText: 'admin.none' },
    { source: 'submitted_at', kind: 'datetime', list: true, sortable: true, emptyText: 'admin.none' },
    { source: 'asset_version_id', kind: 'reference', reference: 'asset_versions' },
    { source: 'file_name', kind: 'text' },
    { source: 'pose_id', kind: 'number' },
    { source: 'face_id', kind: 'number' },
    { source: 'website', kind: 'url', emptyText: 'admin.none' },
    { source: 'comment', kind: 'multiline', emptyText: 'admin.none' },
    { source: 'uuid', kind: 'text' },
    { source: 'reviewed_at', kind: 'datetime', sortable: true, emptyText: 'admin.none' },
    { source: 'reviewed_by', kind: 'reference', reference: 'users', emptyText: 'admin.none' },
    { source: 'published_at', kind: 'datetime', emptyText: 'admin.none' },
  ],
};

export default { ...pagesOf(spec), icon: Inventory2Icon };
