/**
 * The time-travel page (`/admin/time_travel`): where the site's clock stands (real and
 * travelled "now"), a date-time picker in Japan time, "jump to the start of phase X" for an
 * event's phases and "back to real time". Only for roles that may move the clock (admin,
 * director, qa_tester), and never in production: the session says so, and the page (like its
 * menu entry) is not there; were the server to refuse anyway, its message is shown.
 */
import { Alert, Box, Button, Card, CardContent, CardHeader, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import {
  Title,
  useCanAccess,
  useDataProvider,
  useGetIdentity,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { PHASE_TYPES } from './common/choices';
import { recordName } from './common/names';
import { formatJst, fromJstInput, toJstInput } from './common/time';
import type { ClockState, ConsoleDataProvider } from './dataProvider';

/** Tells the layout's banner that the clock moved. */
export const CLOCK_CHANGED = 'vmarket:clock-changed';

interface Phase {
  id: number;
  phase_type: string;
  phase_timestamp: string;
}

interface EventWithPhases {
  id: number;
  name_ja: string;
  name_en: string;
  phases: Phase[];
}

/** Days between the travelled and the real "now", rounded, for the status line. */
export function offsetDays(clock: ClockState): number {
  return Math.round(clock.offset_seconds / 86_400);
}

function ClockStatus({ clock }: { clock: ClockState }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Box data-testid="clock-status" sx={{ mb: 2 }}>
      <Typography data-testid="clock-real">
        {translate('admin.time_travel.real_now', { now: formatJst(clock.now, locale) })}
      </Typography>
      <Typography data-testid="clock-site" sx={{ fontWeight: clock.timestamp ? 'bold' : undefined }}>
        {clock.timestamp
          ? translate('admin.time_travel.travelled', { at: formatJst(clock.timestamp, locale), days: offsetDays(clock) })
          : translate('admin.time_travel.real_time', { now: formatJst(clock.now, locale) })}
      </Typography>
    </Box>
  );
}

function TimeTravelForm() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [clock, setClock] = useState<ClockState | null>(null);
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [events, setEvents] = useState<EventWithPhases[]>([]);
  const [eventId, setEventId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    dataProvider.clock().then(
      (c) => {
        if (!live) return;
        setClock(c);
        setTarget(toJstInput(c.timestamp ?? c.now));
      },
      (e: Error) => live && setError(e.message),
    );
    dataProvider
      .getList<EventWithPhases>('events', {
        pagination: { page: 1, perPage: 50 },
        sort: { field: 'version', order: 'DESC' },
        filter: {},
      })
      .then(
        ({ data }) => {
          if (!live) return;
          const withPhases = data.filter((e) => e.phases.length > 0);
          setEvents(withPhases);
          setEventId(withPhases[0]?.id ?? null);
        },
        () => live && setEvents([]),
      );
    return () => {
      live = false;
    };
  }, [dataProvider]);

  const travel = useCallback(
    async (timestamp: string | null) => {
      setBusy(true);
      setError(null);
      try {
        const moved = await dataProvider.timeTravel(timestamp);
        setClock(moved);
        setTarget(toJstInput(moved.timestamp ?? moved.now));
        notify(timestamp === null ? 'admin.time_travel.cleared' : 'admin.time_travel.done', { type: 'success' });
        window.dispatchEvent(new Event(CLOCK_CHANGED));
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        setBusy(false);
      }
    },
    [dataProvider, notify],
  );

  const event = events.find((e) => e.id === eventId);
  const phaseName = (type: string) => translate(PHASE_TYPES.find((p) => p.id === type)?.name ?? type);
  return (
    <CardContent>
      <Typography sx={{ mb: 2 }}>{translate('admin.time_travel.intro')}</Typography>
      {clock && <ClockStatus clock={clock} />}
      {error && (
        <Alert severity="error" data-testid="time-travel-error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ mb: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          type="datetime-local"
          label={translate('admin.time_travel.target')}
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'time-travel-target' } }}
        />
        <Button
          variant="contained"
          disabled={busy || fromJstInput(target) === null}
          onClick={() => travel(fromJstInput(target))}
          data-testid="time-travel-go"
        >
          {translate('admin.time_travel.travel')}
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => travel(null)} data-testid="time-travel-back">
          {translate('admin.time_travel.back')}
        </Button>
      </Stack>
      {events.length === 0 ? (
        <Typography>{translate('admin.time_travel.no_event')}</Typography>
      ) : (
        <>
          <TextField
            select
            label={translate('resources.concepts.fields.event_id')}
            value={eventId ?? ''}
            onChange={(e) => setEventId(Number(e.target.value))}
            sx={{ minWidth: 280, mb: 2 }}
          >
            {events.map((e) => (
              <MenuItem key={e.id} value={e.id}>
                {recordName(e as unknown as Record<string, unknown>, locale)}
              </MenuItem>
            ))}
          </TextField>
          {event && (
            <>
              <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
                {translate('admin.time_travel.shortcuts', {
                  event: recordName(event as unknown as Record<string, unknown>, locale),
                })}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                {event.phases.map((p) => (
                  <Button
                    key={p.id}
                    size="small"
                    variant="outlined"
                    disabled={busy}
                    data-testid={`jump-${p.phase_type}`}
                    onClick={() => travel(p.phase_timestamp)}
                  >
                    {translate('admin.time_travel.jump', {
                      phase: phaseName(p.phase_type),
                      at: formatJst(p.phase_timestamp, locale),
                    })}
                  </Button>
                ))}
              </Stack>
            </>
          )}
        </>
      )}
    </CardContent>
  );
}

export function TimeTravel() {
  const translate = useTranslate();
  const { canAccess, isPending } = useCanAccess({ resource: 'time_travel', action: 'edit' });
  const { identity, isPending: identifying } = useGetIdentity();
  if (isPending || identifying) return null;
  // Not on this server (production): no page at all, as for any unknown address.
  if (identity?.timeTravel === false) {
    return (
      <Card sx={{ mt: 2 }} data-testid="time-travel-unavailable">
        <Title title="ra.page.not_found" />
        <CardContent>
          <Alert severity="info">{translate('admin.time_travel.unavailable')}</Alert>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card sx={{ mt: 2 }} data-testid="time-travel">
      <Title title="admin.time_travel.title" />
      <CardHeader title={translate('admin.time_travel.title')} />
      {canAccess ? (
        <TimeTravelForm />
      ) : (
        <CardContent>
          <Alert severity="warning">{translate('admin.time_travel.forbidden')}</Alert>
        </CardContent>
      )}
    </Card>
  );
}
