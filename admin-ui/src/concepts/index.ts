/** The `concepts` console resource (server: `src/admin/api/resources/concepts.rs`). */
import CategoryIcon from '@mui/icons-material/Category';
import { CONCEPT_ARTIST_CATEGORIES, CONCEPT_KINDS, PLATFORMS, VENUES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'concepts',
  search: true,
  sort: { field: 'display_order', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'event_id', kind: 'reference', reference: 'events', required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'description_ja', kind: 'multiline', input: true },
    { source: 'description_en', kind: 'multiline', input: true },
    { source: 'platform', kind: 'select', choices: PLATFORMS, required: true, input: true, list: true, filter: true },
    { source: 'venue', kind: 'select', choices: VENUES, required: true, input: true, list: true, filter: true },
    { source: 'kind', kind: 'select', choices: CONCEPT_KINDS, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'is_company', kind: 'boolean', input: true, list: true, filter: true },
    { source: 'display_order', kind: 'number', input: true, defaultValue: 0, list: true, sortable: true },
    { source: 'world_count', kind: 'number', list: true },
    { source: 'image', kind: 'image', input: true },
    { source: 'logo', kind: 'image', input: true },
    { source: 'launch_link_image', kind: 'image', input: true },
    { source: 'map_image_ja', kind: 'image', input: true },
    { source: 'map_image_en', kind: 'image', input: true },
    { source: 'keyword_ids', kind: 'tags', reference: 'keywords', input: true },
    {
      source: 'artists',
      kind: 'rows',
      labels: 'concept_artists',
      input: true,
      columns: [
        { source: 'artist_id', kind: 'reference', reference: 'artists', required: true, input: true },
        { source: 'category', kind: 'select', choices: CONCEPT_ARTIST_CATEGORIES, required: true, input: true },
      ],
    },
  ],
};

export default { ...pagesOf(spec), icon: CategoryIcon };
