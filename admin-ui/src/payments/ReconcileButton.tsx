/**
 * "Reconcile" on a stuck payment's page: asks its provider where the attempt stands and
 * settles, fails or expires it (`POST /admin/api/payments/{id}/reconcile`, the code of the
 * ReconcilePayment job, audited). Only for roles that may reconcile (admins) and attempts still
 * pending; the outcome is told in words, a silent provider as an error.
 */
import { useState } from 'react';
import { Button, useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';

interface PaymentRecord {
  id: number;
  state: string;
}

export function ReconcileButton() {
  const record = useRecordContext<PaymentRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'payments', action: 'reconcile' });
  const [busy, setBusy] = useState(false);
  if (!record || !canAccess || record.state !== 'pending') return null;
  const reconcile = async () => {
    setBusy(true);
    try {
      const done = await dataProvider.reconcile('payments', record.id);
      notify(`admin.payments.outcomes.${done.outcome}`, { type: done.outcome === 'waiting' ? 'info' : 'success' });
    } catch (error) {
      notify((error as Error)?.message ?? 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <Button label="admin.payments.reconcile" disabled={busy} onClick={reconcile} data-testid="payment-reconcile" />
  );
}
