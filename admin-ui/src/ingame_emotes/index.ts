/** The `ingame_emotes` console resource (server: `src/admin/api/resources/ingame_emotes.rs`). */
import EmojiEmotionsIcon from '@mui/icons-material/EmojiEmotions';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The emotes players put on their pallets in game. A blacklisted emote stays listed to players,
 * flagged, and no pallet takes it; deleting one takes it off every pallet.
 */
export const spec: ResourceSpec = {
  name: 'ingame_emotes',
  search: true,
  sort: { field: 'emote_order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'icon_url', kind: 'url', required: true, input: true },
    { source: 'json_url', kind: 'url', required: true, input: true },
    { source: 'emote_order', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'version', kind: 'number', input: true, defaultValue: 1, list: true, sortable: true },
    { source: 'is_free', kind: 'boolean', input: true, defaultValue: true, list: true, filter: true },
    { source: 'is_blacklist', kind: 'boolean', input: true, defaultValue: false, list: true, filter: true },
    { source: 'created_at', kind: 'datetime', sortable: true },
    { source: 'updated_at', kind: 'datetime' },
  ],
};

export default { ...pagesOf(spec), icon: EmojiEmotionsIcon };
