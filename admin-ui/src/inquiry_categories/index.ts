/** The `inquiry_categories` console resource (server: `src/admin/api/resources/inquiry_categories.rs`). */
import TopicIcon from '@mui/icons-material/Topic';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'inquiry_categories',
  search: true,
  sort: { field: 'display_order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'slack_webhook_url', kind: 'url', input: true },
    { source: 'jira_project_code', kind: 'text', input: true, list: true },
    { source: 'jira_issue_type_id', kind: 'text', input: true },
    { source: 'jira_parent_issue', kind: 'text', input: true },
    { source: 'is_public', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
    { source: 'display_order', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'inquiry_count', kind: 'number', list: true },
  ],
};

export default { ...pagesOf(spec), icon: TopicIcon };
