/**
 * `lottery_runs` (server: `src/admin/api/resources/lottery_runs.rs`): the draws per event and
 * round. Create is the commitment (a fresh secret seed, its hash public); the page of a run has
 * Preview / Publish and the result summary.
 */
import {
  AutocompleteInput,
  Create,
  Datagrid,
  DateField,
  List,
  ReferenceInput,
  SaveButton,
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  Toolbar,
  required,
} from 'react-admin';
import { LOTTERY_ROUNDS, LOTTERY_RUN_STATES } from '../entries/choices';
import { RunActions } from './RunActions';
import { Summary } from './Summary';

const filters = [
  <ReferenceInput key="event_id" source="event_id" reference="events" alwaysOn>
    <AutocompleteInput optionText="permalink" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
  <SelectInput key="round" source="round" choices={LOTTERY_ROUNDS} alwaysOn />,
  <SelectInput key="state" source="state" choices={LOTTERY_RUN_STATES} />,
];

export function LotteryRunList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="event_permalink" sortable={false} />
        <SelectField source="round" choices={LOTTERY_ROUNDS} />
        <SelectField source="state" choices={LOTTERY_RUN_STATES} />
        <TextField source="seed_hash" sortable={false} />
        <DateField source="created_at" showTime />
        <DateField source="published_at" showTime emptyText="-" />
      </Datagrid>
    </List>
  );
}

export function LotteryRunShow() {
  return (
    <Show actions={<RunActions />}>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="event_permalink" />
        <SelectField source="round" choices={LOTTERY_ROUNDS} />
        <SelectField source="state" choices={LOTTERY_RUN_STATES} />
        <TextField source="seed_hash" />
        <TextField source="seed" emptyText="admin.lottery_runs.secret" />
        <TextField source="inputs_digest" emptyText="-" />
        <TextField source="result_digest" emptyText="-" />
        <TextField source="created_by_vmarket_id" emptyText="-" />
        <DateField source="created_at" showTime />
        <DateField source="previewed_at" showTime emptyText="-" />
        <DateField source="published_at" showTime emptyText="-" />
        <Summary />
      </SimpleShowLayout>
    </Show>
  );
}

function CommitToolbar() {
  return (
    <Toolbar>
      <SaveButton label="admin.lottery_runs.commit" />
    </Toolbar>
  );
}

export function LotteryRunCreate() {
  return (
    <Create redirect="show">
      <SimpleForm toolbar={<CommitToolbar />}>
        <ReferenceInput source="event_id" reference="events">
          <AutocompleteInput optionText="permalink" filterToQuery={(q: string) => ({ q })} validate={required()} />
        </ReferenceInput>
        <SelectInput source="round" choices={LOTTERY_ROUNDS} validate={required()} />
      </SimpleForm>
    </Create>
  );
}
