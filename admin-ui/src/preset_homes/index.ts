/** The `preset_homes` console resource (server: `src/admin/api/resources/preset_homes.rs`). */
import HomeWorkIcon from '@mui/icons-material/HomeWork';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The booth maker's preset homes: the room's GLB (a file under `/static/` or an https URL), its
 * interior in metres, order and publication. A home booths are made in cannot be deleted.
 */
export const spec: ResourceSpec = {
  name: 'preset_homes',
  search: true,
  sort: { field: 'order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true },
    { source: 'platform_code', kind: 'text', required: true, input: true, list: true, filter: true, defaultValue: 'vket_cloud' },
    { source: 'order', kind: 'number', input: true, list: true, sortable: true, defaultValue: 1 },
    { source: 'scene_url', kind: 'text', required: true, input: true },
    { source: 'thumbnail_url', kind: 'text', input: true },
    { source: 'width', kind: 'number', required: true, input: true, list: true, defaultValue: 4 },
    { source: 'height', kind: 'number', required: true, input: true, list: true, defaultValue: 3 },
    { source: 'depth', kind: 'number', required: true, input: true, list: true, defaultValue: 4 },
    { source: 'published', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: HomeWorkIcon };
