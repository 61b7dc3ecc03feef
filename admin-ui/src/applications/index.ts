/** The `applications` console resource (server: `src/admin/api/resources/applications.rs`). */
import BallotIcon from '@mui/icons-material/Ballot';
import { LOTTERY_ROUNDS, LOTTERY_STATUSES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';
import { StatusDialog } from './StatusDialog';

/**
 * Every wish of every entry with its status as the site shows it now. The only change is the
 * corrective status change of [`StatusDialog`], with a mandatory reason.
 */
export const spec: ResourceSpec = {
  name: 'applications',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'read',
  showActions: StatusDialog,
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', filter: true, alwaysOn: true },
    { source: 'entry_id', kind: 'reference', reference: 'entries', list: true, sortable: true, filter: true },
    { source: 'circle_id', kind: 'reference', reference: 'circles', list: true, filter: true },
    { source: 'plan_id', kind: 'reference', reference: 'entry_plans', list: true, sortable: true, filter: true },
    { source: 'choice', kind: 'number', list: true, sortable: true, filter: true },
    { source: 'lottery_status', kind: 'select', choices: LOTTERY_STATUSES, list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'stored_status', kind: 'select', choices: LOTTERY_STATUSES },
    { source: 'won_round', kind: 'select', choices: LOTTERY_ROUNDS, filter: true, emptyText: 'admin.none' },
    { source: 'fee_at_draw', kind: 'yen', emptyText: 'admin.none' },
    { source: 'use_amp', kind: 'boolean' },
    { source: 'amp_id', kind: 'text', emptyText: 'admin.none' },
    { source: 'free_submission', kind: 'boolean' },
    { source: 'created_at', kind: 'datetime', sortable: true },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: BallotIcon };
