/**
 * "Refund" on a store purchase's page: asks for the reason, then gives the money back at the
 * provider (a purchase paid by card) and revokes the downloads
 * (`POST /admin/api/store_purchases/{id}/refund`, audited with the reason). Only for roles that
 * may refund (admins) and purchases not refunded yet; the outcome is told in words, a silent
 * provider as an error.
 */
import { Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { Button, useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';

interface PurchaseRecord {
  id: number;
  status: string;
}

/** The longest reason the server takes. */
const REASON_MAX = 500;

export function RefundButton() {
  const record = useRecordContext<PurchaseRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'store_purchases', action: 'refund' });
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  if (!record || !canAccess || record.status !== 'paid') return null;
  const ready = reason.trim().length > 0 && reason.length <= REASON_MAX;
  const refund = async () => {
    setBusy(true);
    try {
      const done = await dataProvider.refund('store_purchases', record.id, reason.trim());
      notify(`admin.store_purchases.outcomes.${done.outcome}`, { type: 'success' });
      setOpen(false);
    } catch (error) {
      notify((error as Error)?.message ?? 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <>
      <Button label="admin.store_purchases.refund" onClick={() => setOpen(true)} data-testid="purchase-refund" />
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="refund-title" fullWidth>
        <DialogTitle id="refund-title">{translate('admin.store_purchases.refund_title')}</DialogTitle>
        <DialogContent>
          <p>{translate('admin.store_purchases.refund_note')}</p>
          <TextField
            label={translate('admin.store_purchases.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            multiline
            fullWidth
            slotProps={{ htmlInput: { maxLength: REASON_MAX, 'data-testid': 'refund-reason' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
          <Button
            label="admin.store_purchases.refund_confirm"
            disabled={!ready || busy}
            onClick={refund}
            data-testid="refund-confirm"
          />
        </DialogActions>
      </Dialog>
    </>
  );
}
