/** The `catalog_items` console resource (server: `src/admin/api/resources/catalog_items.rs`). */
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'catalog_items',
  search: true,
  sort: { field: 'display_index', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'exhibitor_id', kind: 'reference', reference: 'exhibitors', input: true, list: true, filter: true },
    { source: 'company_id', kind: 'reference', reference: 'companies', input: true, list: true, filter: true },
    { source: 'category_id', kind: 'reference', reference: 'catalog_item_categories', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'description_ja', kind: 'multiline', input: true },
    { source: 'description_en', kind: 'multiline', input: true },
    { source: 'url', kind: 'url', input: true },
    { source: 'is_distributable', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'price', kind: 'number', input: true, list: true, sortable: true },
    { source: 'display_index', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'thumbnail', kind: 'image', input: true, list: true },
  ],
};

export default { ...pagesOf(spec), icon: ShoppingBagIcon };
