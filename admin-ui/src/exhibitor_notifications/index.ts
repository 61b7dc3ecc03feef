/** The `exhibitor_notifications` console resource (server: `src/admin/api/resources/exhibitor_notifications.rs`). */
import AnnouncementIcon from '@mui/icons-material/Announcement';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'exhibitor_notifications',
  search: true,
  sort: { field: 'published_at', order: 'DESC' },
  actions: 'crud',
  bulk: [
    { label: 'admin.bulk.publish', data: { is_public: true } },
    { label: 'admin.bulk.unpublish', data: { is_public: false } },
  ],
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', input: true, list: true, sortable: true, filter: true },
    { source: 'title_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'title_en', kind: 'text', required: true, input: true, list: true },
    { source: 'label_ja', kind: 'text', input: true },
    { source: 'label_en', kind: 'text', input: true },
    { source: 'description_ja', kind: 'multiline', required: true, input: true },
    { source: 'description_en', kind: 'multiline', required: true, input: true },
    { source: 'published_at', kind: 'datetime', required: true, input: true, list: true, sortable: true },
    { source: 'is_public', kind: 'boolean', input: true, list: true, sortable: true, filter: true },
    { source: 'created_at', kind: 'datetime' },
    { source: 'updated_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: AnnouncementIcon };
