/** The `ingame_chat_messages` console resource (server: `src/admin/api/resources/ingame_chat_messages.rs`). */
import ForumIcon from '@mui/icons-material/Forum';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * What players said in game. Staff hide a message (one, or the selection at once): players read
 * it no more and live streams drop it. Messages are never edited or deleted.
 */
export const spec: ResourceSpec = {
  name: 'ingame_chat_messages',
  search: true,
  sort: { field: 'id', order: 'DESC' },
  actions: 'edit',
  bulk: [
    { label: 'admin.bulk.hide', data: { hidden: true } },
    { label: 'admin.bulk.unhide', data: { hidden: false } },
  ],
  fields: [
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'channel', kind: 'text', list: true, sortable: true, filter: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'user_name', kind: 'text', list: true },
    { source: 'message_type', kind: 'text', list: true, filter: true },
    { source: 'message', kind: 'multiline', list: true },
    { source: 'emote_id', kind: 'reference', reference: 'ingame_emotes' },
    { source: 'hidden', kind: 'boolean', input: true, list: true },
    { source: 'hidden_at', kind: 'datetime' },
    { source: 'hidden_by', kind: 'reference', reference: 'users' },
  ],
};

export default { ...pagesOf(spec), icon: ForumIcon };
