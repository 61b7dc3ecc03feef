/** The `inquiries` console resource (server: `src/admin/api/resources/inquiries.rs`). */
import ContactSupportIcon from '@mui/icons-material/ContactSupport';
import { FORWARDING, FORWARD_STATUS, HANDLING, INQUIRY_STATUS, LANGS } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'inquiries',
  search: true,
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'edit',
  bulk: [
    { label: 'admin.bulk.in_progress', data: { handling: 'in_progress' } },
    { label: 'admin.bulk.resolved', data: { handling: 'resolved' } },
  ],
  fields: [
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'category_id', kind: 'reference', reference: 'inquiry_categories', list: true, sortable: true, filter: true },
    { source: 'email', kind: 'email', list: true, sortable: true, filter: true },
    { source: 'name', kind: 'text', list: true },
    { source: 'message', kind: 'multiline' },
    { source: 'lang', kind: 'select', choices: LANGS, list: true, filter: true },
    { source: 'handling', kind: 'select', choices: HANDLING, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'forwarding', kind: 'select', choices: FORWARDING, filter: true, filterOnly: true },
    { source: 'unforwarded_before', kind: 'datetime', filter: true, filterOnly: true },
    { source: 'status', kind: 'select', choices: INQUIRY_STATUS },
    { source: 'slack_status', kind: 'select', choices: FORWARD_STATUS, list: true, filter: true },
    { source: 'jira_status', kind: 'select', choices: FORWARD_STATUS, list: true, filter: true },
    { source: 'attempts', kind: 'number' },
    { source: 'last_error', kind: 'text' },
    { source: 'jira_issue_key', kind: 'text' },
    { source: 'forwarded_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: ContactSupportIcon };
