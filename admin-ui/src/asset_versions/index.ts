/** The `asset_versions` console resource (server: `src/admin/api/resources/asset_versions.rs`). */
import ViewInArIcon from '@mui/icons-material/ViewInAr';
import { ASSET_KINDS, REPORT_STATUSES, UPLOAD_STATUSES } from '../common/choices';
import { correctionDialog } from '../common/CorrectionDialog';
import { modelPreview } from '../common/ModelPreview';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * Every version of every uploaded asset with its owner, kind, status and report. The one change:
 * fail an uploaded version or restore a failed one, with a mandatory reason the owner sees. A GLB
 * or VRM is drawn in 3-D on the show page.
 */
export const spec: ResourceSpec = {
  name: 'asset_versions',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'read',
  showActions: correctionDialog({
    resource: 'asset_versions',
    field: 'upload_status',
    choices: 'booth_maker.status',
    messages: 'admin.asset_versions',
  }),
  showFooter: modelPreview('asset_versions', (record) => record.mime_type === 'model/gltf-binary'),
  fields: [
    { source: 'asset_name', kind: 'text', list: true },
    { source: 'asset_id', kind: 'number', sortable: true, filter: true },
    { source: 'owner_user_id', kind: 'reference', reference: 'users', filter: true },
    { source: 'owner_vmarket_id', kind: 'text', list: true },
    { source: 'setting_label', kind: 'select', choices: ASSET_KINDS, list: true, filter: true, alwaysOn: true },
    { source: 'version', kind: 'number', list: true, sortable: true },
    { source: 'upload_status', kind: 'select', choices: UPLOAD_STATUSES, list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'report_status', kind: 'select', choices: REPORT_STATUSES, list: true, emptyText: 'admin.none' },
    { source: 'num_errors', kind: 'number', emptyText: 'admin.none' },
    { source: 'num_warnings', kind: 'number', emptyText: 'admin.none' },
    { source: 'status_reason', kind: 'multiline', emptyText: 'admin.none' },
    { source: 'file_name', kind: 'text', list: true },
    { source: 'byte_size', kind: 'number', sortable: true },
    { source: 'mime_type', kind: 'text', emptyText: 'admin.none' },
    { source: 'report', kind: 'json' },
    { source: 'created_at', kind: 'datetime', sortable: true, filter: 'range' },
    { source: 'uploaded_at', kind: 'datetime', sortable: true, emptyText: 'admin.none' },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: ViewInArIcon };
