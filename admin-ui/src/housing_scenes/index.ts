/** The `housing_scenes` console resource (server: `src/admin/api/resources/housing_scenes.rs`). */
import WeekendIcon from '@mui/icons-material/Weekend';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * Users' booths from the booth maker. Staff choose the world a booth is shown in (its code is what
 * the world's lookup asks for) and publish it there; the scene itself stays its owner's.
 */
export const spec: ResourceSpec = {
  name: 'housing_scenes',
  search: true,
  sort: { field: 'updated_at', order: 'DESC' },
  actions: 'edit',
  fields: [
    { source: 'name', kind: 'text', list: true, sortable: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'introduction', kind: 'multiline' },
    { source: 'preset_home_id', kind: 'reference', reference: 'preset_homes', list: true },
    { source: 'items', kind: 'number', list: true },
    { source: 'triangles', kind: 'number' },
    { source: 'revision', kind: 'number' },
    { source: 'world_id', kind: 'reference', reference: 'worlds', input: true },
    { source: 'world_code', kind: 'text', input: true, list: true, filter: true },
    { source: 'published', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: WeekendIcon };
