/** The `worlds` console resource (server: `src/admin/api/resources/worlds.rs`). */
import PublicIcon from '@mui/icons-material/Public';
import { PLATFORMS, VENUES, WORLD_ARTIST_CATEGORIES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'worlds',
  search: true,
  sort: { field: 'display_order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', list: true, sortable: true, filter: true },
    { source: 'concept_id', kind: 'reference', reference: 'concepts', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'description_ja', kind: 'multiline', input: true },
    { source: 'description_en', kind: 'multiline', input: true },
    { source: 'exhibition_platform', kind: 'select', choices: PLATFORMS, required: true, input: true, list: true, filter: true },
    { source: 'venue', kind: 'select', choices: VENUES, required: true, input: true, list: true, filter: true },
    { source: 'is_company', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'launch_link', kind: 'url', input: true },
    { source: 'display_order', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'image', kind: 'image', input: true, list: true },
    { source: 'logo', kind: 'image', input: true },
    { source: 'keyword_ids', kind: 'tags', reference: 'keywords', input: true },
    {
      source: 'artists',
      kind: 'rows',
      labels: 'world_artists',
      input: true,
      columns: [
        { source: 'artist_id', kind: 'reference', reference: 'artists', required: true, input: true },
        { source: 'category', kind: 'select', choices: WORLD_ARTIST_CATEGORIES, required: true, input: true },
      ],
    },
    {
      source: 'areas',
      kind: 'rows',
      labels: 'world_areas',
      input: true,
      columns: [
        { source: 'number', kind: 'number', required: true, input: true },
        { source: 'name', kind: 'text', required: true, input: true },
        { source: 'image', kind: 'image', input: true },
      ],
    },
  ],
};

export default { ...pagesOf(spec), icon: PublicIcon };
