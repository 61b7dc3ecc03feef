/** The `tool_releases` console resource (server: `src/admin/api/resources/tool_releases.rs`). */
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The desktop submission tool's releases; `GET /api/get/version` answers the newest published
 * one. Unpublish a release to take it back.
 */
export const spec: ResourceSpec = {
  name: 'tool_releases',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'crud',
  fields: [
    { source: 'version', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'package_name', kind: 'text', required: true, input: true, list: true },
    { source: 'download_url', kind: 'url', required: true, input: true },
    { source: 'tool_type', kind: 'text', input: true, list: true, filter: true, defaultValue: 'vmarket_tools' },
    { source: 'is_published', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'updated_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: SystemUpdateAltIcon };
