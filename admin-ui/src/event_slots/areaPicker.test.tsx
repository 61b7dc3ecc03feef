import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { AdminContext, RecordContextProvider, ResourceContextProvider, SimpleForm, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ja from '../../../locales/ja.json';
import { RecordChoiceField } from '../common/fields';
import { type Catalogue, createI18nProvider } from '../i18n';
import { inputFor } from '../common/views';
import { spec } from './index';

const area = spec.fields.find((f) => f.source === 'world_area_id');
const slot = {
  id: 7,
  world_area_id: 32,
  number: 4,
  areas: [
    { id: 31, name: 'エントランス (1)' },
    { id: 32, name: '中庭 (2)' },
  ],
};

function wrap(children: React.ReactNode, record: Record<string, unknown>) {
  const i18nProvider = createI18nProvider({ ja: ja as Catalogue, en: en as Catalogue }, 'en');
  return render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <ResourceContextProvider value="event_slots">
        <RecordContextProvider value={record}>{children}</RecordContextProvider>
      </ResourceContextProvider>
    </AdminContext>,
  );
}

describe("a slot's area picker", () => {
  afterEach(() => cleanup());

  it("offers the areas of the slot's own world by name and shows the one chosen", async () => {
    expect(area?.choicesFrom).toBe('areas');
    wrap(<SimpleForm record={slot} toolbar={false}>{inputFor(area!)}</SimpleForm>, slot);
    const picker = await screen.findByRole('combobox');
    expect(picker.textContent).toContain('中庭 (2)');
    fireEvent.mouseDown(picker);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(expect.arrayContaining(['エントランス (1)', '中庭 (2)']));
  });

  it('names the chosen area in lists, and says when there is none', async () => {
    wrap(<RecordChoiceField source="world_area_id" from="areas" emptyText="admin.none" />, slot);
    expect(await screen.findByText('中庭 (2)')).toBeTruthy();
    cleanup();
    wrap(<RecordChoiceField source="world_area_id" from="areas" emptyText="admin.none" />, { ...slot, world_area_id: null });
    expect(await screen.findByText(en.admin.none)).toBeTruthy();
  });
});
