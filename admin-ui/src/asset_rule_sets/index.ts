/** The `asset_rule_sets` console resource (server: `src/admin/api/resources/asset_rule_sets.rs`). */
import RuleIcon from '@mui/icons-material/Rule';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * The rule sets uploads are checked against. The rules are JSON in the analysers' shape
 * (`src/assets/analyse/rules.rs`), read by the server on save; a change of the rules raises the
 * version, which every report names. The key is fixed once made.
 */
export const spec: ResourceSpec = {
  name: 'asset_rule_sets',
  search: true,
  sort: { field: 'key', order: 'ASC' },
  actions: 'crud',
  fields: [
    { source: 'key', kind: 'text', required: true, input: true, list: true, sortable: true },
    { source: 'name_ja', kind: 'text', required: true, input: true, list: true },
    { source: 'name_en', kind: 'text', required: true, input: true, list: true },
    { source: 'version', kind: 'number', list: true, sortable: true },
    { source: 'rule_count', kind: 'number', list: true },
    { source: 'used_by', kind: 'text', list: true },
    { source: 'rules', kind: 'json', required: true, input: true, defaultValue: '[]' },
    { source: 'updated_by', kind: 'reference', reference: 'users', emptyText: 'admin.none' },
    { source: 'updated_at', kind: 'datetime', list: true, sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: RuleIcon };
