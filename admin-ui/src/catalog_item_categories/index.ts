/** The `catalog_item_categories` console resource (server: `src/admin/api/resources/catalog_item_categories.rs`). */
import LabelIcon from '@mui/icons-material/Label';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'catalog_item_categories',
  search: true,
  sort: { field: 'display_index', order: 'ASC' },
  actions: 'crud',
  fields: [
    // Groups (general items, company items) are not a console resource: their id.
    { source: 'group_id', kind: 'number', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'item_count', kind: 'number', list: true },
  ],
};

export default { ...pagesOf(spec), icon: LabelIcon };
