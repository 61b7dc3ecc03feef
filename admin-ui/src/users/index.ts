/** The `users` console resource (server: `src/admin/api/resources/users.rs`). */
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { LANGS, ROLES, USER_ATTRIBUTES } from '../common/choices';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

export const spec: ResourceSpec = {
  name: 'users',
  search: true,
  sort: { field: 'created_at', order: 'DESC' },
  actions: 'edit',
  fields: [
    { source: 'vmarket_id', kind: 'text', list: true, sortable: true, filter: true },
    { source: 'name_ja', kind: 'text', list: true },
    { source: 'name_en', kind: 'text', list: true },
    { source: 'email', kind: 'email', list: true },
    { source: 'role', kind: 'select', choices: ROLES, required: true, input: true, list: true, sortable: true, filter: true },
    { source: 'attribute', kind: 'select', choices: USER_ATTRIBUTES, list: true, filter: true },
    { source: 'lang', kind: 'select', choices: LANGS },
    { source: 'icon', kind: 'image' },
    { source: 'created_at', kind: 'datetime', list: true, sortable: true },
    { source: 'updated_at', kind: 'datetime', sortable: true },
  ],
};

export default { ...pagesOf(spec), icon: ManageAccountsIcon };
