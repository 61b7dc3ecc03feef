/** The `vrchat_avatar_orders` console resource (server: `src/admin/api/resources/vrchat_avatar_orders.rs`). */
import ReceiptIcon from '@mui/icons-material/Receipt';
import { VRC_ORDER_STATES, VRC_PAYMENT_TYPES, VRC_PURCHASE_TYPES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/** Users' VRChat avatar orders: price, provider ids to look up, where each stands; read only. */
export const spec: ResourceSpec = {
  name: 'vrchat_avatar_orders',
  search: true,
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'read',
  fields: [
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'avatar_name', kind: 'text', list: true },
    { source: 'purchase_type', kind: 'select', choices: VRC_PURCHASE_TYPES, list: true },
    { source: 'total_price', kind: 'number', list: true },
    { source: 'payment_type', kind: 'select', choices: VRC_PAYMENT_TYPES, list: true, filter: true },
    { source: 'state', kind: 'select', choices: VRC_ORDER_STATES, list: true, filter: true },
    { source: 'paid_at', kind: 'datetime', emptyText: 'admin.none', sortable: true },
    { source: 'uploads', kind: 'number' },
    { source: 'closing_date', kind: 'datetime' },
    { source: 'vrchat_avatar_id', kind: 'reference', reference: 'vrchat_avatars', emptyText: 'admin.none' },
    { source: 'paypal_order_id', kind: 'text', emptyText: 'admin.none' },
    { source: 'invoice_id', kind: 'text', emptyText: 'admin.none' },
    { source: 'gmo_payment_order_id', kind: 'text', emptyText: 'admin.none' },
    { source: 'uuid', kind: 'text' },
  ],
};

export default { ...pagesOf(spec), icon: ReceiptIcon };
