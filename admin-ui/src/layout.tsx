/**
 * The console's layout and theme, with the accessibility fixes react-admin's defaults need
 * (axe, WCAG 2.2 AA; e2e/a11y.test.mjs):
 * - the app bar's white text on MUI's default blue (#2196f3) is 3.1:1; a darker primary is 5.7:1;
 * - a form's toolbar is lighter and the error red darker (its Delete button was 3.8:1);
 * - the user menu button shows the user's name but was named "Profile" (label in name, 2.5.3);
 * - every page's title is its `<h1>` (react-admin's is a `<span>`);
 * - list rows' checkboxes carry their name, sort buttons are 24 px, "nothing yet" is readable;
 * - the folded bulk actions bar hides its buttons (they were focusable, invisible, and over the
 *   last column's sort button).
 * The menu adds the time-travel page for roles that may use it, and a banner says when the
 * site runs on a travelled clock.
 */
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import { Alert } from '@mui/material';
import { useEffect, useState } from 'react';
import {
  AppBar,
  Layout,
  type LayoutProps,
  LoadingIndicator,
  LocalesMenuButton,
  Menu,
  TitlePortal,
  UserMenu,
  defaultTheme,
  useBasename,
  useCanAccess,
  useDataProvider,
  useGetIdentity,
  useLocaleState,
  useLocales,
  useTranslate,
} from 'react-admin';
import { formatJst } from './common/time';
import type { ClockState, ConsoleDataProvider } from './dataProvider';
import { CLOCK_CHANGED } from './TimeTravel';

/** The id of the layout's hidden "loading" text, which names every loading bar. */
export const LOADING_LABEL_ID = 'vm-loading-label';

export const theme = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#1565c0' },
    secondary: { main: '#1565c0' },
    // MUI's error red (#d32f2f) is 4.98:1 on white but 3.77:1 on a form's toolbar (its Delete
    // button); this one is 5.6:1 on white, 5.2:1 on the toolbar below.
    error: { main: '#c62828' },
  },
  components: {
    ...defaultTheme.components,
    // A form's toolbar (Save, Delete) in grey 100, not react-admin's grey 300, on which the
    // Delete button's red and a text button's blue were under 4.5:1.
    RaToolbar: { styleOverrides: { root: { backgroundColor: '#f5f5f5' } } },
    // A list's sort buttons are at least 24 px square (target size, 2.5.8).
    MuiTableSortLabel: { styleOverrides: { root: { minHeight: 24, minWidth: 24 } } },
    // With nothing selected, react-admin folds the bulk actions bar to height 0 but leaves its
    // buttons in the tab order, invisible, on top of the last column's sort button (axe:
    // target-size on that button; a keyboard user tabs onto controls they cannot see). Hidden
    // while folded: out of the tab order and the accessibility tree until rows are selected.
    RaBulkActionsToolbar: {
      styleOverrides: { root: { '& .RaBulkActionsToolbar-collapsed': { visibility: 'hidden' } } },
    },
    // The loading bars react-admin shows in a field or a form while its data loads are progress
    // bars: each is named by the layout's hidden "loading" label (axe: aria-progressbar-name).
    MuiLinearProgress: { defaultProps: { 'aria-labelledby': LOADING_LABEL_ID } },
    // "Nothing yet" in a readable grey (react-admin's is 0.38 black, 2.4:1).
    RaEmpty: {
      styleOverrides: { root: { '& .RaEmpty-message, & .RaEmpty-message *': { color: 'rgba(0, 0, 0, 0.6)', opacity: 1 } } },
    },
  },
};

/**
 * react-admin names a list row's checkbox on the checkbox's wrapper (`aria-label` on a span,
 * which axe forbids) and leaves the checkbox itself unnamed: move the name onto the input.
 */
function nameRowCheckboxes(root: ParentNode) {
  for (const wrapper of Array.from(root.querySelectorAll('.select-item[aria-label]'))) {
    const input = wrapper.querySelector('input[type="checkbox"]');
    const label = wrapper.getAttribute('aria-label');
    if (input && label) {
      input.setAttribute('aria-label', label);
      wrapper.removeAttribute('aria-label');
    }
  }
}

function useNamedRowCheckboxes() {
  useEffect(() => {
    nameRowCheckboxes(document);
    const observer = new MutationObserver(() => nameRowCheckboxes(document));
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
    return () => observer.disconnect();
  }, []);
}

function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ? String(identity.fullName) : undefined} />;
}

/**
 * react-admin's toolbar (the language menu, the loading indicator) with the spinner named for
 * screen readers: unnamed, it is a progress bar without a name to assistive technology (axe's
 * aria-progressbar-name, serious), and it shows on every page while data loads.
 */
function ConsoleToolbar() {
  const translate = useTranslate();
  const locales = useLocales();
  return (
    <>
      {locales.length > 1 ? <LocalesMenuButton /> : null}
      <LoadingIndicator aria-label={translate('ra.page.loading')} />
    </>
  );
}

function ConsoleAppBar() {
  return (
    <AppBar userMenu={<ConsoleUserMenu />} toolbar={<ConsoleToolbar />}>
      <TitlePortal component="h1" />
    </AppBar>
  );
}

function ConsoleMenu() {
  const { canAccess } = useCanAccess({ resource: 'time_travel', action: 'show' });
  // Menu links are not relative to the router's basename: `/time_travel` would leave the console.
  const basename = useBasename();
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      {canAccess && <Menu.Item to={`${basename}/time_travel`} primaryText="admin.menu.time_travel" leftIcon={<AccessTimeIcon />} />}
    </Menu>
  );
}

/** "The site runs as if it were …" while the clock is travelled. */
function ClockBanner() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [clock, setClock] = useState<ClockState | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      dataProvider.clock().then(
        (c) => live && setClock(c),
        () => live && setClock(null),
      );
    void load();
    window.addEventListener(CLOCK_CHANGED, load);
    return () => {
      live = false;
      window.removeEventListener(CLOCK_CHANGED, load);
    };
  }, [dataProvider]);
  if (!clock?.timestamp) return null;
  return (
    <Alert severity="warning" data-testid="clock-banner" sx={{ mt: 1 }}>
      {translate('admin.time_travel.banner', { at: formatJst(clock.timestamp, locale) })}
    </Alert>
  );
}

export function ConsoleLayout({ children, ...props }: LayoutProps) {
  useNamedRowCheckboxes();
  const translate = useTranslate();
  return (
    <Layout {...props} appBar={ConsoleAppBar} menu={ConsoleMenu}>
      <span id={LOADING_LABEL_ID} hidden>
        {translate('ra.page.loading')}
      </span>
      <ClockBanner />
      {children}
    </Layout>
  );
}
