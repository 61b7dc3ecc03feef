/**
 * `applications` (server: `src/admin/api/resources/applications.rs`): every wish of every entry
 * with its status as the site shows it now. The only change is the corrective status change of
 * [`StatusDialog`], with a mandatory reason.
 */
import {
  AutocompleteInput,
  BooleanField,
  Datagrid,
  DateField,
  List,
  NumberField,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  SelectField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
} from 'react-admin';
import { LOTTERY_ROUNDS, LOTTERY_STATUSES } from '../entries/choices';
import { StatusDialog } from './StatusDialog';

const filters = [
  <TextInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="event_id" source="event_id" reference="events" alwaysOn>
    <AutocompleteInput optionText="permalink" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
  <SelectInput key="lottery_status" source="lottery_status" choices={LOTTERY_STATUSES} alwaysOn />,
  <NumberInput key="circle_id" source="circle_id" />,
  <NumberInput key="entry_id" source="entry_id" />,
  <NumberInput key="plan_id" source="plan_id" />,
];

export function ApplicationList() {
  return (
    <List filters={filters} sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <ReferenceField source="entry_id" reference="entries" link="show" />
        <TextField source="circle_name_ja" sortable={false} />
        <TextField source="plan_name_ja" sortable={false} />
        <NumberField source="choice" />
        <SelectField source="lottery_status" choices={LOTTERY_STATUSES} />
        <DateField source="updated_at" showTime />
      </Datagrid>
    </List>
  );
}

function ShowActions() {
  return (
    <TopToolbar>
      <StatusDialog />
    </TopToolbar>
  );
}

export function ApplicationShow() {
  return (
    <Show actions={<ShowActions />}>
      <SimpleShowLayout>
        <TextField source="id" />
        <ReferenceField source="entry_id" reference="entries" link="show" />
        <NumberField source="event_id" />
        <NumberField source="circle_id" />
        <TextField source="circle_name_ja" />
        <TextField source="circle_name_en" />
        <NumberField source="plan_id" />
        <TextField source="plan_name_ja" />
        <TextField source="plan_name_en" />
        <NumberField source="choice" />
        <SelectField source="lottery_status" choices={LOTTERY_STATUSES} />
        <SelectField source="stored_status" choices={LOTTERY_STATUSES} />
        <SelectField source="won_round" choices={LOTTERY_ROUNDS} emptyText="-" />
        <NumberField source="fee_at_draw" emptyText="-" />
        <BooleanField source="use_amp" />
        <TextField source="amp_id" emptyText="-" />
        <BooleanField source="free_submission" />
        <DateField source="created_at" showTime />
        <DateField source="updated_at" showTime />
      </SimpleShowLayout>
    </Show>
  );
}
