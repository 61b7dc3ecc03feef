/** The `entries` console resource (server: `src/admin/api/resources/entries.rs`). */
import AssignmentIcon from '@mui/icons-material/Assignment';
import { LOTTERY_STATUSES, LOTTERY_TYPES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * Each circle's entry with its wishes and the lottery type derived from them, read only; a
 * status is corrected on the application (its row opens it).
 */
export const spec: ResourceSpec = {
  name: 'entries',
  search: true,
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'read',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'circle_id', kind: 'reference', reference: 'circles', list: true, sortable: true, filter: true },
    { source: 'circle_is_suspended', kind: 'boolean', list: true },
    { source: 'is_multiple_win', kind: 'boolean', list: true, sortable: true, filter: true },
    { source: 'lottery_type', kind: 'select', choices: LOTTERY_TYPES, list: true },
    { source: 'lottery_status', kind: 'select', choices: LOTTERY_STATUSES, filter: true, filterOnly: true, alwaysOn: true },
    {
      source: 'applications',
      kind: 'rows',
      reference: 'applications',
      columns: [
        { source: 'choice', kind: 'number' },
        { source: 'plan_id', kind: 'reference', reference: 'entry_plans' },
        { source: 'lottery_status', kind: 'select', choices: LOTTERY_STATUSES },
      ],
    },
    { source: 'terms_agreed_at', kind: 'datetime', list: true, sortable: true },
    { source: 'terms_digest', kind: 'text' },
    { source: 'terms_shown', kind: 'text' },
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: AssignmentIcon };
