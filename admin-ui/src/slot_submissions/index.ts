/** The `slot_submissions` console resource (server: `src/admin/api/resources/slot_submissions.rs`). */
import FactCheckIcon from '@mui/icons-material/FactCheck';
import { INSPECTION_STATUSES, REPORT_STATUSES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * Booth submissions and their inspection. Staff open a slot's newest submission, read the
 * automatic check beside it (the asset version's report), and decide: passed, or needs fix with
 * one finding per thing to fix (a blocking finding keeps the booth from being shown). The owner
 * is mailed. The list filters by event, circle, status and check, and exports to CSV.
 */
export const spec: ResourceSpec = {
  name: 'slot_submissions',
  search: true,
  sort: { field: 'submitted_at', order: 'DESC' },
  actions: 'edit',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', filter: true, alwaysOn: true },
    { source: 'slot_id', kind: 'reference', reference: 'event_slots', list: true },
    { source: 'circle_id', kind: 'reference', reference: 'circles', list: true, filter: true },
    { source: 'version', kind: 'number', list: true, sortable: true },
    { source: 'newest', kind: 'boolean', list: true, filter: true, alwaysOn: true },
    { source: 'file_name', kind: 'text', list: true },
    { source: 'asset_version_id', kind: 'reference', reference: 'asset_versions' },
    { source: 'report_status', kind: 'select', choices: REPORT_STATUSES, list: true, filter: true },
    { source: 'num_errors', kind: 'number' },
    { source: 'num_warnings', kind: 'number' },
    { source: 'inspection_status', kind: 'select', choices: INSPECTION_STATUSES, input: true, required: true, list: true, filter: true, alwaysOn: true },
    {
      source: 'findings',
      kind: 'rows',
      labels: 'slot_submissions',
      input: true,
      columns: [
        { source: 'reason', kind: 'multiline', required: true, input: true },
        { source: 'rule_id', kind: 'text', input: true },
        { source: 'blocking', kind: 'boolean', input: true },
      ],
    },
    { source: 'is_booth_error', kind: 'boolean', list: true, filter: true },
    { source: 'submitted_at', kind: 'datetime', list: true, sortable: true },
    { source: 'inspected_at', kind: 'datetime', sortable: true },
    { source: 'inspected_by', kind: 'reference', reference: 'users' },
  ],
};

export default { ...pagesOf(spec), icon: FactCheckIcon };
