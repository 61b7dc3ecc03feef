/**
 * The resources of the console. Each lives in its own folder (`src/<resource>/index.ts`)
 * exporting `{ list, edit, create, show, icon }`, and is registered here with its REST name
 * under `/admin/api/<name>`, e.g. `{ name: 'circles', ...circles }`.
 */
import type { ResourceProps } from 'react-admin';
import applications from './applications';
import entries from './entries';
import entry_plans from './entry_plans';
import lottery_runs from './lottery_runs';

export const RESOURCES: ResourceProps[] = [
  { name: 'entry_plans', ...entry_plans },
  { name: 'entries', ...entries },
  { name: 'applications', ...applications },
  { name: 'lottery_runs', ...lottery_runs },
];
