/**
 * `entry_plans` (server: `src/admin/api/resources/entry_plans.rs`): an event's plans with their
 * world, slots and fee. A plan circles applied for cannot be deleted (the server answers 409).
 */
import {
  AutocompleteInput,
  Create,
  Datagrid,
  DateField,
  Edit,
  List,
  NumberField,
  NumberInput,
  ReferenceInput,
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  UrlField,
  required,
} from 'react-admin';
import { EXHIBITION_CATEGORIES, RATE_LABELS } from '../entries/choices';

const filters = [
  <TextInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="event_id" source="event_id" reference="events" alwaysOn>
    <AutocompleteInput optionText="permalink" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
  <SelectInput key="exhibition_category" source="exhibition_category" choices={EXHIBITION_CATEGORIES} />,
];

export function EntryPlanList() {
  return (
    <List filters={filters} sort={{ field: 'display_order', order: 'ASC' }}>
      <Datagrid rowClick="show">
        <TextField source="id" />
        <NumberField source="event_id" />
        <SelectField source="exhibition_category" choices={EXHIBITION_CATEGORIES} />
        <TextField source="name_ja" />
        <TextField source="name_en" />
        <NumberField source="maximum" />
        <NumberField source="fee" />
        <NumberField source="application_count" sortable={false} />
        <SelectField source="rate_label" choices={RATE_LABELS} sortable={false} />
        <NumberField source="display_order" />
      </Datagrid>
    </List>
  );
}

export function EntryPlanShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <NumberField source="event_id" />
        <NumberField source="world_id" />
        <SelectField source="exhibition_category" choices={EXHIBITION_CATEGORIES} />
        <TextField source="name_ja" />
        <TextField source="name_en" />
        <NumberField source="maximum" />
        <NumberField source="fee" />
        <UrlField source="preview_world_launch_url" emptyText="-" />
        <NumberField source="display_order" />
        <NumberField source="application_count" />
        <SelectField source="rate_label" choices={RATE_LABELS} />
        <DateField source="created_at" showTime />
        <DateField source="updated_at" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

function PlanForm() {
  return (
    <SimpleForm>
      <ReferenceInput source="event_id" reference="events">
        <AutocompleteInput optionText="permalink" filterToQuery={(q: string) => ({ q })} validate={required()} />
      </ReferenceInput>
      <NumberInput source="world_id" validate={required()} />
      <SelectInput source="exhibition_category" choices={EXHIBITION_CATEGORIES} validate={required()} />
      <TextInput source="name_ja" validate={required()} />
      <TextInput source="name_en" validate={required()} />
      <NumberInput source="maximum" min={0} validate={required()} />
      <NumberInput source="fee" min={0} validate={required()} />
      <TextInput source="preview_world_launch_url" type="url" />
      <NumberInput source="display_order" min={0} />
    </SimpleForm>
  );
}

export function EntryPlanEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <PlanForm />
    </Edit>
  );
}

export function EntryPlanCreate() {
  return (
    <Create record={{ display_order: 0 }}>
      <PlanForm />
    </Create>
  );
}
