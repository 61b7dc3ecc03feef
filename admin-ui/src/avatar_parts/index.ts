/** The `avatar_parts` console resource (server: `src/admin/api/resources/avatar_parts.rs`). */
import FaceRetouchingNaturalIcon from '@mui/icons-material/FaceRetouchingNatural';
import { PART_TYPES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The parts the avatar maker offers. Each is an uploaded "avatar parts (ZIP)" asset, typed by
 * its asset id; a part for buyers only names the store item that sells it.
 */
export const spec: ResourceSpec = {
  name: 'avatar_parts',
  search: true,
  sort: { field: 'part_order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name', kind: 'text', required: true, input: true, list: true },
    { source: 'part_type', kind: 'select', choices: PART_TYPES, required: true, input: true, list: true, filter: true },
    { source: 'published', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'is_limited', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'is_purchase_required', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'avatar_maker_version', kind: 'number', required: true, input: true, list: true, sortable: true, filter: true, defaultValue: 1 },
    { source: 'part_order', kind: 'number', input: true, list: true, sortable: true, defaultValue: 0 },
    { source: 'name_en', kind: 'text', input: true },
    { source: 'asset_id', kind: 'number', required: true, input: true },
    { source: 'store_item_id', kind: 'reference', reference: 'store_items', input: true, emptyText: 'admin.none' },
    { source: 'is_vrc_uploadable', kind: 'boolean', input: true },
    { source: 'uuid', kind: 'text' },
    { source: 'created_at', kind: 'datetime' },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: FaceRetouchingNaturalIcon };
