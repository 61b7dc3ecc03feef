/** The `event_slots` console resource (server: `src/admin/api/resources/event_slots.rs`). */
import StorefrontIcon from '@mui/icons-material/Storefront';
import { LOTTERY_STATUSES, SUBMISSION_STATES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The slots — applications paid or won without a fee — and where their booths stand. Staff pick
 * an area of the plan's world (the record's `areas`) and a number, or select slots and "assign in order": each takes
 * the lowest free number of its area.
 */
export const spec: ResourceSpec = {
  name: 'event_slots',
  search: true,
  sort: { field: 'id', order: 'ASC' },
  actions: 'edit',
  bulk: [{ label: 'admin.bulk.assign_in_order', data: { assign: 'next' } }],
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', filter: true, alwaysOn: true },
    { source: 'circle_id', kind: 'reference', reference: 'circles', list: true, filter: true },
    { source: 'plan_id', kind: 'reference', reference: 'entry_plans', list: true, sortable: true, filter: true },
    { source: 'world_id', kind: 'reference', reference: 'worlds', list: true, filter: true },
    { source: 'lottery_status', kind: 'select', choices: LOTTERY_STATUSES, list: true, filter: true },
    { source: 'world_area_id', kind: 'select', choicesFrom: 'areas', input: true, list: true, emptyText: 'admin.none' },
    { source: 'number', kind: 'number', input: true, list: true, emptyText: 'admin.none' },
    { source: 'placed', kind: 'boolean', list: true, filter: true, alwaysOn: true },
    { source: 'submission', kind: 'select', choices: SUBMISSION_STATES, list: true, filter: true, alwaysOn: true },
    { source: 'submission_version', kind: 'number', emptyText: 'admin.none' },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: StorefrontIcon };
