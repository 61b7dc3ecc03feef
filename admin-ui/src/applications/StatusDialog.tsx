/**
 * The corrective status change of one application: the statuses the server offers for it
 * (`corrections`, DOMAIN.md's diagram either way, never `paid`) and a mandatory reason, kept in
 * the audit log ({@link correctionDialog}).
 */
import { correctionDialog } from '../common/CorrectionDialog';

export const StatusDialog = correctionDialog({
  resource: 'applications',
  field: 'lottery_status',
  choices: 'admin.choices.lottery_status',
  messages: 'admin.applications',
});
