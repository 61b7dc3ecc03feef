/** The `hub_tags` console resource (server: `src/admin/api/resources/hub_tags.rs`). */
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'hub_tags',
  search: true,
  sort: { field: 'display_index', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'notification_count', kind: 'number', list: true },
  ],
};

export default { ...pagesOf(spec), icon: LocalOfferIcon };
