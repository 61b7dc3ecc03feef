/** The `asset_settings` console resource (server: `src/admin/api/resources/asset_settings.rs`). */
import TuneIcon from '@mui/icons-material/Tune';
import { ASSET_KINDS, ASSET_TYPES, FILE_KINDS } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The uploader's kinds of upload: names, the kinds of file offered, the largest file and the
 * rule set. Label and type are fixed; the kinds must be ones the rule set allows (the server
 * says which are not).
 */
export const spec: ResourceSpec = {
  name: 'asset_settings',
  search: true,
  sort: { field: 'label', order: 'ASC' },
  actions: 'edit',
  fields: [
    { source: 'label', kind: 'select', choices: ASSET_KINDS, list: true, sortable: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true },
    { source: 'asset_type', kind: 'select', choices: ASSET_TYPES },
    { source: 'accepted_kinds', kind: 'choices', choices: FILE_KINDS, required: true, input: true, list: true },
    { source: 'max_bytes', kind: 'number', required: true, input: true, list: true, sortable: true },
    { source: 'rule_set_id', kind: 'reference', reference: 'asset_rule_sets', required: true, input: true, list: true },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: TuneIcon };
