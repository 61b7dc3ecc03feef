import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ja from '../../locales/ja.json';
import type { Catalogue } from './i18n';
import { RESOURCES } from './resources';
import type { ResourceSpec } from './common/spec';

const catalogues = { ja: ja as Catalogue, en: en as Catalogue };

function lookup(catalogue: Catalogue, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Catalogue | undefined)?.[part], catalogue);
}

/** The specs of the resources built from one (a folder may export its own components instead). */
const specs = (
  await Promise.all(
    RESOURCES.map(async (r) => ((await import(`./${r.name}/index.ts`)) as { spec?: ResourceSpec }).spec),
  )
).filter((s): s is ResourceSpec => s !== undefined);

describe('console resources', () => {
  it('are registered under their REST names, each from its own folder', () => {
    expect(specs.length).toBe(RESOURCES.length);
    for (const spec of specs) expect(RESOURCES.map((r) => r.name)).toContain(spec.name);
    for (const r of RESOURCES) {
      expect(r.list, r.name).toBeTruthy();
      expect(r.icon, r.name).toBeTruthy();
    }
  });

  it('offer create and edit only where the server does', () => {
    for (const spec of specs) {
      const r = RESOURCES.find((x) => x.name === spec.name);
      expect(Boolean(r?.create), spec.name).toBe(spec.actions === 'crud' || spec.actions === 'create');
      expect(Boolean(r?.edit), spec.name).toBe(spec.actions === 'crud' || spec.actions === 'edit');
    }
  });

  it('offer every bulk change of a flag both ways (publish / unpublish, recommend / stop recommending)', () => {
    for (const spec of specs) {
      for (const b of spec.bulk ?? []) {
        for (const [field, value] of Object.entries(b.data)) {
          if (typeof value !== 'boolean') continue;
          const back = (spec.bulk ?? []).some((o) => o.data[field] === !value);
          expect(back, `${spec.name}: ${b.label} sets ${field} to ${value}; which action undoes it?`).toBe(true);
        }
      }
    }
    const hub = specs.find((s) => s.name === 'hub_notifications');
    expect(hub?.bulk?.map((b) => b.data)).toContainEqual({ is_strong_recommended: false });
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`have every label and choice in ${lang}.json`, () => {
      const missing: string[] = [];
      const need = (key: string) => {
        if (typeof lookup(catalogues[lang], key) !== 'string') missing.push(key);
      };
      for (const spec of specs) {
        need(`admin.resources.${spec.name}.name`);
        if (spec.search) need(`admin.resources.${spec.name}.fields.q`);
        need(`admin.resources.${spec.name}.fields.id`);
        for (const f of spec.fields) {
          if (f.filter === 'range') {
            need(`admin.resources.${spec.name}.fields.${f.source}_gte`);
            need(`admin.resources.${spec.name}.fields.${f.source}_lte`);
          }
          need(`admin.resources.${spec.name}.fields.${f.source}`);
          for (const c of f.choices ?? []) need(c.name);
          if (f.emptyText) need(f.emptyText);
          for (const column of f.columns ?? []) {
            need(`admin.resources.${f.labels ?? f.reference}.fields.${column.source}`);
            for (const c of column.choices ?? []) need(c.name);
          }
        }
        for (const b of spec.bulk ?? []) need(b.label);
        if (spec.createLabel) need(spec.createLabel);
      }
      expect(missing).toEqual([]);
    });
  }
});
