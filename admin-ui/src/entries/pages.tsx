/**
 * `entries` (server: `src/admin/api/resources/entries.rs`): each circle's entry with its wishes
 * and the lottery type derived from them, read only; a status is corrected on the application.
 */
import {
  ArrayField,
  AutocompleteInput,
  BooleanField,
  Datagrid,
  DateField,
  List,
  NumberField,
  NumberInput,
  ReferenceInput,
  SelectField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
} from 'react-admin';
import { LOTTERY_STATUSES, LOTTERY_TYPES } from './choices';

const filters = [
  <TextInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="event_id" source="event_id" reference="events" alwaysOn>
    <AutocompleteInput optionText="permalink" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
  <SelectInput key="lottery_status" source="lottery_status" choices={LOTTERY_STATUSES} alwaysOn />,
  <NumberInput key="circle_id" source="circle_id" />,
];

export function EntryList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="event_permalink" sortable={false} />
        <TextField source="circle_name_ja" sortable={false} />
        <BooleanField source="circle_is_suspended" sortable={false} />
        <BooleanField source="is_multiple_win" />
        <SelectField source="lottery_type" choices={LOTTERY_TYPES} sortable={false} />
        <DateField source="created_at" showTime />
      </Datagrid>
    </List>
  );
}

export function EntryShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="event_permalink" />
        <NumberField source="circle_id" />
        <TextField source="circle_name_ja" />
        <TextField source="circle_name_en" />
        <BooleanField source="circle_is_suspended" />
        <BooleanField source="is_multiple_win" />
        <SelectField source="lottery_type" choices={LOTTERY_TYPES} />
        <ArrayField source="applications">
          <Datagrid bulkActionButtons={false} rowClick={(id) => `/applications/${id}/show`}>
            <NumberField source="choice" label="resources.applications.fields.choice" />
            <TextField source="plan_name_ja" label="resources.applications.fields.plan_name_ja" />
            <SelectField
              source="lottery_status"
              choices={LOTTERY_STATUSES}
              label="resources.applications.fields.lottery_status"
            />
          </Datagrid>
        </ArrayField>
        <DateField source="created_at" showTime />
        <DateField source="updated_at" showTime />
      </SimpleShowLayout>
    </Show>
  );
}
