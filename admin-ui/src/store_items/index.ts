/** The `store_items` console resource (server: `src/admin/api/resources/store_items.rs`). */
import StorefrontIcon from '@mui/icons-material/Storefront';
import { ACCESSIBLE_STATUSES, PRODUCT_CATEGORIES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * What sellers put in the store. Staff hide an item from everyone but its seller and set the
 * platform's fee of its future sales; the rest is the seller's.
 */
export const spec: ResourceSpec = {
  name: 'store_items',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'edit',
  fields: [
    { source: 'name', kind: 'text', list: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'product_category', kind: 'select', choices: PRODUCT_CATEGORIES, list: true, filter: true },
    { source: 'accessible_status', kind: 'select', choices: ACCESSIBLE_STATUSES, list: true, filter: true },
    { source: 'is_forced_private', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'price', kind: 'number', list: true, sortable: true },
    { source: 'fee', kind: 'number', input: true, list: true },
    { source: 'purchase_count', kind: 'number', list: true, sortable: true },
    { source: 'included_item_ids', kind: 'tags', reference: 'store_items' },
    { source: 'parent_item_ids', kind: 'tags', reference: 'store_items' },
    { source: 'name_en', kind: 'text' },
    { source: 'description', kind: 'multiline' },
    { source: 'uuid', kind: 'text' },
    { source: 'asset_id', kind: 'number' },
    { source: 'discount_rate', kind: 'number' },
    { source: 'discount_start_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'discount_end_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'start_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'end_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'created_at', kind: 'datetime', sortable: true },
    { source: 'updated_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: StorefrontIcon };
