/** The `audit_log` console resource (server: `src/admin/api/resources/audit_log.rs`). */
import HistoryIcon from '@mui/icons-material/History';
import { AUDIT_ACTIONS, ROLES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'audit_log',
  sort: { field: 'at', order: 'DESC' },
  actions: 'read',
  fields: [
    { source: 'at', kind: 'datetime', list: true, sortable: true, filter: 'range' },
    { source: 'actor_vmarket_id', kind: 'text', list: true, sortable: true, filter: true },
    { source: 'actor_role', kind: 'select', choices: ROLES, list: true },
    { source: 'resource', kind: 'text', list: true, sortable: true, filter: true },
    { source: 'record_id', kind: 'text', list: true, filter: true },
    { source: 'action', kind: 'select', choices: AUDIT_ACTIONS, list: true, sortable: true, filter: true },
    { source: 'changed_fields', kind: 'text', list: true },
    {
      source: 'changes',
      kind: 'rows',
      labels: 'audit_changes',
      columns: [
        { source: 'field', kind: 'text' },
        { source: 'before', kind: 'json' },
        { source: 'after', kind: 'json' },
      ],
    },
    { source: 'actor_id', kind: 'number' },
    { source: 'before', kind: 'json' },
    { source: 'after', kind: 'json' },
  ],
};

export default { ...pagesOf(spec), icon: HistoryIcon };
