import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type AuthProvider, HttpError } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ja from '../../locales/ja.json';
import { App } from './App';
import type { ClockState, ConsoleDataProvider } from './dataProvider';
import type { Catalogue } from './i18n';

const catalogues = { ja: ja as Catalogue, en: en as Catalogue };
const REAL: ClockState = { timestamp: null, offset_seconds: 0, now: '2026-11-23T00:00:00Z' };

/** A console backend with one event and a clock; `refuse` makes travelling fail like production. */
function backend(refuse: string | null = null) {
  const travels: (string | null)[] = [];
  const provider = {
    clock: async () => REAL,
    dashboard: async () => ({ cards: [] }),
    getList: async () => ({
      data: [
        {
          id: 4,
          name_ja: '2026冬',
          name_en: '2026 Winter',
          phases: [
            { id: 1, phase_type: 'entry_start', phase_timestamp: '2026-08-01T03:00:00Z' },
            { id: 2, phase_type: 'event_open', phase_timestamp: '2026-12-12T03:00:00Z' },
          ],
        },
      ],
      total: 1,
    }),
    timeTravel: async (timestamp: string | null) => {
      travels.push(timestamp);
      if (refuse) throw new HttpError(refuse, 422, { code: 'time_travel_disabled', message: refuse, details: [] });
      return timestamp === null ? REAL : { timestamp: '2026-12-12T03:00:00Z', offset_seconds: 19 * 86_400, now: REAL.now };
    },
  } as unknown as ConsoleDataProvider;
  return { provider, travels };
}

function staff(permissions: string[], timeTravel = true): AuthProvider {
  return {
    login: async () => {},
    logout: async () => false,
    checkAuth: async () => {},
    checkError: async () => {},
    getPermissions: async () => 'qa_tester',
    getIdentity: async () => ({ id: 1, fullName: 'QA', timeTravel }),
    canAccess: async ({ resource, action }) => resource === 'time_travel' && permissions.includes(action),
  };
}

function open(auth: AuthProvider, provider: ConsoleDataProvider) {
  window.history.replaceState(null, '', '/admin/time_travel');
  localStorage.clear();
  render(<App catalogues={catalogues} authProvider={auth} dataProvider={provider} />);
}

describe('the time-travel page', () => {
  afterEach(() => cleanup());

  it('jumps to the start of a phase, shows the travelled clock, and comes back', async () => {
    const { provider, travels } = backend();
    open(staff(['show', 'edit']), provider);
    const jump = await screen.findByTestId('jump-event_open');
    expect(jump.textContent).toBe('会期開始（2026/12/12 12:00）');
    fireEvent.click(jump);
    await waitFor(() => expect(travels).toEqual(['2026-12-12T03:00:00Z']));
    await waitFor(() =>
      expect(screen.getByTestId('clock-site').textContent).toBe(
        ja.admin.time_travel.travelled.replace('{at}', '2026/12/12 12:00').replace('{days}', '19'),
      ),
    );
    // The picker shows the travelled moment in Japan time and sends what is typed as Japan time.
    const picker = screen.getByTestId('time-travel-target') as HTMLInputElement;
    expect(picker.value).toBe('2026-12-12T12:00');
    fireEvent.change(picker, { target: { value: '2027-01-01T09:30' } });
    fireEvent.click(screen.getByTestId('time-travel-go'));
    await waitFor(() => expect(travels[1]).toBe('2027-01-01T09:30:00+09:00'));
    const back = screen.getByTestId('time-travel-back') as HTMLButtonElement;
    await waitFor(() => expect(back.disabled).toBe(false));
    fireEvent.click(back);
    await waitFor(() => expect(travels[2]).toBeNull());
  });

  it("shows the server's refusal (production)", async () => {
    const { provider } = backend('本番環境ではタイムトラベルできません。');
    open(staff(['show', 'edit']), provider);
    fireEvent.click(await screen.findByTestId('jump-entry_start'));
    const error = await screen.findByTestId('time-travel-error');
    expect(error.textContent).toBe('本番環境ではタイムトラベルできません。');
  });

  it('is refused to roles that may not travel', async () => {
    const { provider } = backend();
    open(staff([]), provider);
    await screen.findByText(ja.admin.time_travel.forbidden);
    expect(screen.queryByTestId('time-travel-go')).toBeNull();
  });

  it('is not there in production: no menu entry, no page, nothing sent', async () => {
    const { provider, travels } = backend();
    open(staff([], false), provider);
    const gone = await screen.findByTestId('time-travel-unavailable');
    expect(gone.textContent).toContain(ja.admin.time_travel.unavailable);
    expect(screen.queryByTestId('time-travel')).toBeNull();
    expect(screen.queryByText(ja.admin.menu.time_travel)).toBeNull();
    expect(travels).toEqual([]);
  });
});
