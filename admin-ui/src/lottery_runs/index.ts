/** The `lottery_runs` console resource (server: `src/admin/api/resources/lottery_runs.rs`). */
import CasinoIcon from '@mui/icons-material/Casino';
import { LOTTERY_ROUNDS, LOTTERY_RUN_STATES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';
import { RunActions } from './RunActions';
import { Summary } from './Summary';

/**
 * The draws per event and round. Create is the commitment (a fresh secret seed, its hash
 * public); a run's page has Preview / Publish and the result table. The 64-digit hash is on the
 * run's page, not in the list, whose table it pushed past the window's width.
 */
export const spec: ResourceSpec = {
  name: 'lottery_runs',
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'create',
  createLabel: 'admin.lottery_runs.commit',
  showActions: RunActions,
  showFooter: Summary,
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'round', kind: 'select', choices: LOTTERY_ROUNDS, required: true, input: true, list: true, sortable: true, filter: true, alwaysOn: true },
    { source: 'state', kind: 'select', choices: LOTTERY_RUN_STATES, list: true, sortable: true, filter: true },
    { source: 'seed_hash', kind: 'text' },
    { source: 'seed', kind: 'text', emptyText: 'admin.lottery_runs.secret' },
    { source: 'inputs_digest', kind: 'text', emptyText: 'admin.none' },
    { source: 'result_digest', kind: 'text', emptyText: 'admin.none' },
    { source: 'created_by_vmarket_id', kind: 'text', emptyText: 'admin.lottery_runs.by_system' },
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'previewed_by_vmarket_id', kind: 'text', emptyText: 'admin.lottery_runs.by_system' },
    { source: 'previewed_at', kind: 'datetime', sortable: true, emptyText: 'admin.none' },
    { source: 'published_by_vmarket_id', kind: 'text', emptyText: 'admin.lottery_runs.by_system' },
    { source: 'published_at', kind: 'datetime', list: true, sortable: true, emptyText: 'admin.none' },
  ],
};

export default { ...pagesOf(spec), icon: CasinoIcon };
