/** The `ingame_chat_blocks` console resource (server: `src/admin/api/resources/ingame_chat_blocks.rs`). */
import BlockIcon from '@mui/icons-material/Block';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The chat blacklist: a user here reads chat but cannot post. Deleting the entry lifts the bar.
 */
export const spec: ResourceSpec = {
  name: 'ingame_chat_blocks',
  search: true,
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'crud',
  fields: [
    { source: 'user_id', kind: 'reference', reference: 'users', required: true, input: true, list: true, filter: true },
    { source: 'vmarket_id', kind: 'text', list: true },
    { source: 'user_name', kind: 'text', list: true },
    { source: 'reason', kind: 'multiline', required: true, input: true, list: true },
    { source: 'blocked_by', kind: 'reference', reference: 'users' },
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: BlockIcon };
