/** The `ambassadors` console resource (server: `src/admin/api/resources/ambassadors.rs`). */
import EmojiPeopleIcon from '@mui/icons-material/EmojiPeople';
import { TEAM_TYPES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'ambassadors',
  sort: { field: 'generation', order: 'DESC' },
  actions: 'crud',
  fields: [
    // Users are an admin's resource: event staff type the user's id and see their handle.
    { source: 'user_id', kind: 'number', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'vmarket_id', kind: 'text', list: true },
    { source: 'name_ja', kind: 'text', list: true },
    { source: 'generation', kind: 'number', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'team_type', kind: 'select', choices: TEAM_TYPES, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'is_inactive', kind: 'boolean', input: true, list: true, filter: true },
  ],
};

export default { ...pagesOf(spec), icon: EmojiPeopleIcon };
