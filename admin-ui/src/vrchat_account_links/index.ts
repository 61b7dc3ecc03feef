/** The `vrchat_account_links` console resource (server: `src/admin/api/resources/vrchat_account_links.rs`). */
import LinkIcon from '@mui/icons-material/Link';
import type { ResourceSpec } from '../common/spec';
import { pagesOf } from '../common/views';

/**
 * Users' linked VRChat accounts. Users link them (a code in the VRChat bio); staff may remove a
 * link, which frees the VRChat account.
 */
export const spec: ResourceSpec = {
  name: 'vrchat_account_links',
  search: true,
  sort: { field: 'linked_at', order: 'DESC' },
  actions: 'delete',
  fields: [
    { source: 'display_name', kind: 'text', list: true },
    { source: 'vrchat_id', kind: 'text', list: true },
    { source: 'user_id', kind: 'reference', reference: 'users', list: true, filter: true },
    { source: 'linked_at', kind: 'datetime', list: true, sortable: true },
    { source: 'bio', kind: 'multiline' },
    { source: 'user_icon', kind: 'text', emptyText: 'admin.none' },
  ],
};

export default { ...pagesOf(spec), icon: LinkIcon };
