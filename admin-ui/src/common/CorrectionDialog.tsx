/**
 * A corrective status change of one record, with a mandatory reason: the statuses the server
 * offers for it (its `corrections`), sent as `PUT /admin/api/{resource}/{id}` with `reason`, which
 * the audit log keeps. Shown only to roles that may edit the resource. Used by applications
 * (a lottery status) and asset versions (failed or restored).
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

/** What a correctable record carries: its status field and the statuses it may be set to. */
interface CorrectableRecord {
  id: number;
  corrections?: string[];
  [field: string]: unknown;
}

/** Where a correction dialog works and what it calls things. */
export interface Correction {
  /** The console resource. */
  resource: string;
  /** The status field. */
  field: string;
  /** Catalogue prefix of the status labels (`admin.choices.lottery_status`). */
  choices: string;
  /**
   * Catalogue group of the dialog's texts: `correct`, `dialog_title`, `current`,
   * `no_corrections`, `reason_help`, `cancel`, `save`, `done`.
   */
  messages: string;
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

/** The show page's action for `correction`'s resource (only for roles that may edit it). */
export function correctionDialog({ resource, field, choices, messages }: Correction) {
  return function CorrectionDialog() {
    return <Dialogue resource={resource} field={field} choices={choices} messages={messages} />;
  };
}

function Dialogue({ resource, field, choices, messages }: Correction) {
  const record = useRecordContext<CorrectableRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource, action: 'edit' });
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [update, { isPending }] = useUpdate();
  if (!record || !canAccess) return null;
  const corrections = record.corrections ?? [];
  const statusLabel = (s: string) => translate(`${choices}.${s}`);

  const close = () => {
    setOpen(false);
    setErrors({});
  };
  const save = () => {
    update(
      resource,
      { id: record.id, data: { [field]: status, reason }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`${messages}.done`, { type: 'success' });
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
      <Button label={`${messages}.correct`} onClick={() => setOpen(true)} data-testid="correct-status" />
      <Dialog open={open} onClose={close} aria-labelledby="status-dialog-title" fullWidth>
        <DialogTitle id="status-dialog-title">{translate(`${messages}.dialog_title`, { id: record.id })}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>
            {translate(`${messages}.current`, { status: statusLabel(String(record[field] ?? '')) })}
          </Typography>
          {corrections.length === 0 ? (
            <Typography>{translate(`${messages}.no_corrections`)}</Typography>
          ) : (
            <>
              <MuiTextField
                select
                fullWidth
                margin="dense"
                label={translate(`resources.${resource}.fields.${field}`)}
                value={status}
                onChange={(e) => setStatus(e.target.value)}
                error={Boolean(errors[field])}
                helperText={errors[field] ?? ' '}
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
                label={translate(`resources.${resource}.fields.reason`)}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                error={Boolean(errors.reason)}
                helperText={errors.reason ?? translate(`${messages}.reason_help`)}
                required
                slotProps={{ htmlInput: { maxLength: 1000 } }}
              />
            </>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close}>{translate(`${messages}.cancel`)}</MuiButton>
          <MuiButton
            variant="contained"
            onClick={save}
            disabled={isPending || corrections.length === 0 || status === '' || reason.trim() === ''}
          >
            {translate(`${messages}.save`)}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
