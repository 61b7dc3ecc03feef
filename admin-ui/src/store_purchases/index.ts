/** The `store_purchases` console resource (server: `src/admin/api/resources/store_purchases.rs`). */
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import { PURCHASE_STATUSES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';
import { RefundButton } from './RefundButton';

/** Who got which store item, at what price and fee; an admin refunds one from its page. */
export const spec: ResourceSpec = {
  name: 'store_purchases',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'read',
  showActions: RefundButton,
  fields: [
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'item_id', kind: 'reference', reference: 'store_items', list: true, filter: true },
    { source: 'buyer_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'seller_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'price', kind: 'number', list: true, sortable: true },
    { source: 'fee_amount', kind: 'number', list: true },
    { source: 'status', kind: 'select', choices: PURCHASE_STATUSES, list: true, filter: true },
    { source: 'uuid', kind: 'text' },
    { source: 'refunded_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'refund_reason', kind: 'text', emptyText: 'admin.none' },
  ],
};

export default { ...pagesOf(spec), icon: ShoppingBagIcon };
