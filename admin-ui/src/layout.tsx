/**
 * The console's layout and theme, with the accessibility fixes react-admin's defaults need
 * (axe, WCAG 2.2 AA; e2e/a11y.test.mjs):
 * - the app bar's white text on MUI's default blue (#2196f3) is 3.1:1; a darker primary is 5.7:1;
 * - the user menu button shows the user's name but was named "Profile" (label in name, 2.5.3).
 */
import { AppBar, Layout, type LayoutProps, UserMenu, defaultTheme, useGetIdentity } from 'react-admin';

export const theme = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: '#1565c0' }, secondary: { main: '#1565c0' } },
};

function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ? String(identity.fullName) : undefined} />;
}

function ConsoleAppBar() {
  return <AppBar userMenu={<ConsoleUserMenu />} />;
}

export function ConsoleLayout(props: LayoutProps) {
  return <Layout {...props} appBar={ConsoleAppBar} />;
}
