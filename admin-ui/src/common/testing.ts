/** What the console's tests share. */
import type { AuthProvider } from 'react-admin';

/** A signed-in staff member whose role allows the actions `allows` says, as `canAccess` answers
 * from the session. */
export function roleAllowing(allows: (action: string) => boolean): AuthProvider {
  return {
    login: async () => {},
    logout: async () => {},
    checkAuth: async () => {},
    checkError: async () => {},
    getPermissions: async () => '',
    canAccess: async ({ action }) => allows(action),
  };
}
