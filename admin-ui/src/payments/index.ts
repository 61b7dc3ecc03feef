/** The `payments` console resource (server: `src/admin/api/resources/payments.rs`). */
import PaymentsIcon from '@mui/icons-material/Payments';
import { ORDER_STATES, PAYMENT_TYPES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';
import { ReconcileButton } from './ReconcileButton';

/**
 * Every payment attempt with the settled payment it made: read by admin, director and
 * uc_staff; an admin reconciles a stuck (pending) one from its page.
 */
export const spec: ResourceSpec = {
  name: 'payments',
  search: true,
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'read',
  showActions: ReconcileButton,
  fields: [
    { source: 'created_at', kind: 'datetime', list: true, sortable: true, filter: 'range' },
    { source: 'event_id', kind: 'reference', reference: 'events', list: true, filter: true, alwaysOn: true },
    { source: 'circle_id', kind: 'reference', reference: 'circles', list: true, filter: true },
    { source: 'application_id', kind: 'reference', reference: 'applications', sortable: true, filter: true },
    { source: 'user_vmarket_id', kind: 'text', list: true },
    { source: 'provider', kind: 'select', choices: PAYMENT_TYPES, list: true, sortable: true, filter: true },
    { source: 'amount', kind: 'yen', list: true, sortable: true },
    { source: 'state', kind: 'select', choices: ORDER_STATES, list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'is_late', kind: 'boolean', list: true, filter: true },
    { source: 'is_duplicate', kind: 'boolean', list: true, filter: true },
    { source: 'needs_refund', kind: 'boolean', list: true, filter: true },
    { source: 'failure', kind: 'text', emptyText: 'admin.none' },
    { source: 'transaction_uuid', kind: 'text' },
    { source: 'provider_order_id', kind: 'text', emptyText: 'admin.none' },
    { source: 'reconcile_attempts', kind: 'number' },
    { source: 'settled_at', kind: 'datetime', sortable: true, emptyText: 'admin.none' },
    { source: 'order_reference', kind: 'text', emptyText: 'admin.none' },
    { source: 'paid_at', kind: 'datetime', emptyText: 'admin.none' },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: PaymentsIcon };
