/**
 * CSV export of a list: every record the list's filters match (fetched a thousand at a time, the
 * most the server answers at once, however many there are), with the columns the list shows,
 * headed by their labels and holding what the list shows — a referenced record's name rather
 * than its id, a choice's label rather than its code, instants in Japan time.
 */
import DownloadIcon from '@mui/icons-material/GetApp';
import { useState } from 'react';
import {
  Button,
  type DataProvider,
  type RaRecord,
  downloadCSV,
  useDataProvider,
  useListContext,
  useLocaleState,
  useNotify,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { toCsv } from './csv';
import { recordName } from './names';
import type { FieldSpec, ResourceSpec } from './spec';
import { formatJst } from './time';

/** Records per request (the server's largest window). */
export const PAGE = 1000;

/** Writes the CSV of `records` (the list's resource). */
export type ColumnExporter = (records: RaRecord[], dataProvider: DataProvider) => Promise<void>;

/** Records of `resource` by id, for `ids`, asked for a page at a time. */
async function recordsById(dataProvider: DataProvider, resource: string, ids: unknown[]) {
  const unique = [...new Set(ids.filter((id) => id !== null && id !== undefined))];
  const out: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < unique.length; i += PAGE / 2) {
    const { data } = await dataProvider.getMany(resource, { ids: unique.slice(i, i + PAGE / 2) as RaRecord['id'][] });
    for (const record of data) out[String(record.id)] = record;
  }
  return out;
}

/**
 * The CSV exporter of a list: the columns it shows, headed by their labels, with what the list
 * shows in them — a referenced record's name rather than its id, a choice's label rather than
 * its code, instants in Japan time.
 */
export function useColumnExporter(spec: ResourceSpec): ColumnExporter {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const shown = spec.fields.filter((f) => f.list);
  const columns = [{ source: 'id', label: translate(`resources.${spec.name}.fields.id`) }].concat(
    shown.map((f) => ({ source: f.source, label: translate(`resources.${spec.name}.fields.${f.source}`) })),
  );
  return async (records, dataProvider) => {
    const names = new Map<string, Record<string, unknown>>();
    for (const f of shown.filter((f) => f.kind === 'reference' && f.reference)) {
      const ids = records.map((r) => (r as Record<string, unknown>)[f.source]);
      names.set(f.source, await recordsById(dataProvider, f.reference ?? '', ids));
    }
    const rows = (records as Record<string, unknown>[]).map((record) => {
      const row: Record<string, unknown> = { id: record.id };
      for (const f of shown) row[f.source] = csvCell(f, record[f.source], names.get(f.source), translate, locale);
      return row;
    });
    downloadCSV(toCsv(rows, columns), spec.name);
  };
}

/** One exported cell of `f` as the list shows it. */
function csvCell(
  f: FieldSpec,
  value: unknown,
  related: Record<string, unknown> | undefined,
  translate: (key: string) => string,
  locale: string,
): unknown {
  if (value === null || value === undefined) return value;
  switch (f.kind) {
    case 'reference': {
      const record = related?.[String(value)] as Record<string, unknown> | undefined;
      return record ? recordName(record, locale) : value;
    }
    case 'select': {
      const choice = f.choices?.find((c) => c.id === value);
      return choice ? translate(choice.name) : value;
    }
    case 'datetime':
      return formatJst(value, locale);
    case 'phases':
    case 'rows':
      return Array.isArray(value) ? value.length : value;
    default:
      return value;
  }
}


/** Every record the list's filters match, in its order. */
export async function everyRecord(
  dataProvider: DataProvider,
  resource: string,
  filter: Record<string, unknown>,
  sort: { field: string; order: 'ASC' | 'DESC' },
): Promise<RaRecord[]> {
  const all: RaRecord[] = [];
  for (let page = 1; ; page += 1) {
    const { data, total } = await dataProvider.getList(resource, { filter, sort, pagination: { page, perPage: PAGE } });
    all.push(...data);
    if (data.length < PAGE || (total !== undefined && all.length >= total)) return all;
  }
}

/** The list's "Export" button: the CSV of every record its filters match. */
export function ExportAllButton({ exporter }: { exporter: ColumnExporter }) {
  const resource = useResourceContext() ?? '';
  const { filterValues, sort, total } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await exporter(await everyRecord(dataProvider, resource, filterValues, sort), dataProvider);
    } catch (error) {
      notify((error as Error)?.message ?? 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="ra.action.export" onClick={run} disabled={busy || total === 0}>
      <DownloadIcon />
    </Button>
  );
}
