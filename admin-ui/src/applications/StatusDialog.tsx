/**
 * The corrective status change of one application: the statuses the server offers for it
 * (`corrections`, DOMAIN.md's diagram either way, never `paid`) and a mandatory reason, sent as
 * `PUT /admin/api/applications/{id}` and kept in the audit log. Shown only to roles that may
 * edit applications.
 */
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Button, useCanAccess, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate } from 'react-admin';

interface ApplicationRecord {
  id: number;
  lottery_status: string;
  corrections: string[];
}

interface ServerError {
  message?: string;
  body?: { errors?: Record<string, unknown> };
}

/** The field errors a failed save carries (`dataProvider` puts them in `body.errors`). */
function fieldErrors(error: unknown): Record<string, string> {
  const errors = (error as ServerError)?.body?.errors ?? {};
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

export function StatusDialog() {
  const record = useRecordContext<ApplicationRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'applications', action: 'edit' });
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [update, { isPending }] = useUpdate();
  if (!record || !canAccess) return null;
  const corrections = record.corrections ?? [];
  const statusLabel = (s: string) => translate(`admin.choices.lottery_status.${s}`);

  const close = () => {
    setOpen(false);
    setErrors({});
  };
  const save = () => {
    update(
      'applications',
      { id: record.id, data: { lottery_status: status, reason }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('admin.applications.done', { type: 'success' });
          setOpen(false);
          setReason('');
          setStatus('');
          refresh();
        },
        onError: (error) => {
          setErrors(fieldErrors(error));
          notify((error as ServerError)?.message ?? 'ra.notification.http_error', { type: 'error' });
        },
      },
    );
  };

  return (
    <>
      <Button label="admin.applications.correct" onClick={() => setOpen(true)} data-testid="correct-status" />
      <Dialog open={open} onClose={close} aria-labelledby="status-dialog-title" fullWidth>
        <DialogTitle id="status-dialog-title">{translate('admin.applications.dialog_title', { id: record.id })}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>
            {translate('admin.applications.current', { status: statusLabel(record.lottery_status) })}
          </Typography>
          {corrections.length === 0 ? (
            <Typography>{translate('admin.applications.no_corrections')}</Typography>
          ) : (
            <>
              <MuiTextField
                select
                fullWidth
                margin="dense"
                label={translate('resources.applications.fields.lottery_status')}
                value={status}
                onChange={(e) => setStatus(e.target.value)}
                error={Boolean(errors.lottery_status)}
                helperText={errors.lottery_status ?? ' '}
                required
              >
                {corrections.map((s) => (
                  <MenuItem key={s} value={s}>
                    {statusLabel(s)}
                  </MenuItem>
                ))}
              </MuiTextField>
              <MuiTextField
                fullWidth
                multiline
                minRows={3}
                margin="dense"
                label={translate('resources.applications.fields.reason')}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                error={Boolean(errors.reason)}
                helperText={errors.reason ?? translate('admin.applications.reason_help')}
                required
                slotProps={{ htmlInput: { maxLength: 1000 } }}
              />
            </>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close}>{translate('admin.applications.cancel')}</MuiButton>
          <MuiButton
            variant="contained"
            onClick={save}
            disabled={isPending || corrections.length === 0 || status === '' || reason.trim() === ''}
          >
            {translate('admin.applications.save')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
