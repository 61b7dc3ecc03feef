/**
 * The pages of a resource built from its [`ResourceSpec`]: a list (columns, search, filters,
 * server-side sort and pagination, CSV export of the shown columns, bulk changes), a show page,
 * and edit / create forms whose server validation errors appear beside the fields (the
 * dataProvider turns the error body's `details` into react-admin's `errors`). Buttons and bulk
 * actions appear only when the role may use them (`authProvider.canAccess`).
 */
import { type ReactElement, cloneElement } from 'react';
import {
  ArrayField,
  ArrayInput,
  BooleanField,
  BooleanInput,
  BulkDeleteButton,
  BulkUpdateButton,
  Create,
  CreateButton,
  Datagrid,
  DeleteButton,
  Edit,
  EmailField,
  FilterButton,
  FunctionField,
  Labeled,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  ReferenceArrayField,
  ReferenceField,
  SearchInput,
  SelectField,
  SelectArrayInput,
  SelectInput,
  Show,
  SimpleForm,
  SimpleList,
  SimpleFormIterator,
  SimpleShowLayout,
  SingleFieldList,
  TextField,
  TextInput,
  UrlField,
  EditButton,
  SaveButton,
  Toolbar,
  TopToolbar,
  required,
  useCanAccess,
  useLocaleState,
  useResourceContext,
} from 'react-admin';
import { type Theme, useMediaQuery } from '@mui/material';
import { storedLocale } from '../i18n';
import { PHASE_TYPES } from './choices';
import { ExportAllButton, useColumnExporter } from './export';
import {
  ChoicesField,
  DateTimeField,
  JsonField,
  JsonInput,
  RecordChoiceField,
  RecordChoicesInput,
  JstDateTimeInput,
  PictureField,
  PictureInput,
  RecordChip,
  RecordName,
  ReferencePicker,
  ReferencesPicker,
} from './fields';
import { recordName } from './names';
import type { BulkSpec, FieldSpec, ResourceSpec } from './spec';

/** Amounts in yen (integers, grouped: ￥8,000). */
const YEN = { style: 'currency', currency: 'JPY', maximumFractionDigits: 0 } as const;

const NO_WRAP = { '& .MuiFormControlLabel-label': { whiteSpace: 'nowrap' } };

/**
 * A show page no wider than a phone: tables (a record's rows, a draw's summary) scroll sideways in
 * their own box, and long values (addresses) wrap anywhere instead of widening the page.
 */
const FITS_THE_SCREEN = {
  '& .RaDatagrid-tableWrapper, & .vm-table-scroll': { overflowX: 'auto', maxWidth: '100%' },
  '& .RaLabeled-root, & .MuiTypography-root': { overflowWrap: 'anywhere' },
};

/** Column headers on one line: a Japanese label broke anywhere (バージ/ョン) in a narrow column. */
const HEADERS_WHOLE = { '& .RaDatagrid-headerCell': { whiteSpace: 'nowrap' } };

/**
 * The field showing `f` (`inList`: as a list column), keyed by its source; `label`: a catalogue
 * key other than the resource's own (a column of another resource's rows).
 */
export function fieldFor(f: FieldSpec, inList = false, label?: string): ReactElement {
  return cloneElement(fieldBody(f, inList, label), { key: f.source });
}

function fieldBody(f: FieldSpec, inList: boolean, label?: string): ReactElement {
  const common = { source: f.source, sortable: f.sortable ?? false, emptyText: f.emptyText, ...(label ? { label } : {}) };
  switch (f.kind) {
    case 'number':
      return <NumberField {...common} />;
    case 'yen':
      return <NumberField {...common} options={YEN} />;
    case 'boolean':
      return <BooleanField {...common} />;
    case 'datetime':
      return <DateTimeField {...common} />;
    case 'url':
      return <UrlField {...common} target="_blank" rel="noopener noreferrer" />;
    case 'email':
      return <EmailField {...common} />;
    case 'image':
      return <PictureField {...common} inList={inList} />;
    case 'select':
      if (f.choicesFrom) return <RecordChoiceField {...common} from={f.choicesFrom} />;
      return <SelectField {...common} choices={f.choices ?? []} />;
    case 'reference':
      return (
        <ReferenceField {...common} reference={f.reference ?? ''} link="show" emptyText="—">
          <RecordName />
        </ReferenceField>
      );
    case 'rows':
      return <RowsField {...common} spec={f} />;
    case 'tags':
      return (
        <ReferenceArrayField {...common} reference={f.reference ?? ''}>
          <SingleFieldList linkType={false}>
            <RecordChip />
          </SingleFieldList>
        </ReferenceArrayField>
      );
    case 'json':
      return <JsonField {...common} />;
    case 'choices':
      return <ChoicesField {...common} choices={f.choices ?? []} />;
    case 'phases':
      return inList ? (
        <FunctionField
          key={f.source}
          source={f.source}
          sortable={false}
          render={(record: { phases?: unknown[] }) => String(record.phases?.length ?? 0)}
        />
      ) : (
        <ArrayField key={f.source} source={f.source}>
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <SelectField source="phase_type" choices={PHASE_TYPES} label="resources.events.fields.phase_type" sortable={false} />
            <DateTimeField source="phase_timestamp" label="resources.events.fields.phase_timestamp" sortable={false} />
            <BooleanField source="is_private" label="resources.events.fields.is_private" sortable={false} />
            <BooleanField source="is_displayable" label="resources.events.fields.is_displayable" sortable={false} />
          </Datagrid>
        </ArrayField>
      );
    default:
      return <TextField {...common} />;
  }
}

/** The catalogue key naming column `column` of the `rows` field `f`. */
function columnLabel(f: FieldSpec, column: FieldSpec): string {
  return `resources.${f.labels ?? f.reference}.fields.${column.source}`;
}

/**
 * A list of sub-records (an entry's applications, a world's areas) as a table whose columns are
 * labelled by `labels` / `reference`; with `reference`, a row opens that record.
 */
function RowsField({ source, spec, label }: { source: string; spec: FieldSpec; label?: string }) {
  const columns = spec.columns ?? [];
  const reference = spec.reference;
  return (
    <ArrayField source={source} label={label}>
      <Datagrid bulkActionButtons={false} rowClick={reference ? (id) => `/${reference}/${id}/show` : false}>
        {columns.map((c) => fieldFor({ ...c, sortable: false }, true, columnLabel(spec, c)))}
      </Datagrid>
    </ArrayField>
  );
}

/**
 * A cleared text field sends '' (react-admin would send null): the server reads '' as "no
 * value" for optional texts and as empty for plain ones, where null would be a wrong type.
 */
const keepText = (value: string) => value;

/** The input of `f`, keyed by its source; `label`: a catalogue key other than the resource's own. */
export function inputFor(f: FieldSpec, label?: string): ReactElement {
  return cloneElement(inputBody(f, label), { key: f.source });
}

function inputBody(f: FieldSpec, label?: string): ReactElement {
  const validate = f.required ? required() : undefined;
  const common = { source: f.source, validate, defaultValue: f.defaultValue, ...(label ? { label } : {}) };
  switch (f.kind) {
    case 'multiline':
      return <TextInput {...common} multiline minRows={3} fullWidth parse={keepText} />;
    case 'number':
    case 'yen':
      return <NumberInput {...common} min={0} />;
    case 'boolean':
      return <BooleanInput key={f.source} source={f.source} />;
    case 'datetime':
      return <JstDateTimeInput {...common} />;
    case 'select':
      if (f.choicesFrom) return <RecordChoicesInput {...common} from={f.choicesFrom} emptyText="admin.none" />;
      return <SelectInput {...common} choices={f.choices ?? []} />;
    case 'choices':
      return <SelectArrayInput {...common} choices={f.choices ?? []} />;
    case 'json':
      return <JsonInput {...common} />;
    case 'image':
      return <PictureInput source={f.source} validate={validate} label={label} />;
    case 'reference':
      return <ReferencePicker {...common} reference={f.reference ?? ''} />;
    case 'tags':
      return <ReferencesPicker key={f.source} source={f.source} reference={f.reference ?? ''} />;
    case 'rows':
      return (
        <ArrayInput key={f.source} source={f.source}>
          <SimpleFormIterator inline disableReordering>
            {(f.columns ?? []).filter((c) => c.input).map((c) => inputFor(c, columnLabel(f, c)))}
          </SimpleFormIterator>
        </ArrayInput>
      );
    case 'phases':
      return (
        <ArrayInput key={f.source} source={f.source}>
          <SimpleFormIterator inline disableReordering>
            <SelectInput
              source="phase_type"
              choices={PHASE_TYPES}
              validate={required()}
              label="resources.events.fields.phase_type"
            />
            <JstDateTimeInput
              source="phase_timestamp"
              validate={required()}
              label="resources.events.fields.phase_timestamp"
            />
            <BooleanInput source="is_private" label="resources.events.fields.is_private" sx={NO_WRAP} />
            <BooleanInput source="is_displayable" label="resources.events.fields.is_displayable" sx={NO_WRAP} />
          </SimpleFormIterator>
        </ArrayInput>
      );
    default:
      return <TextInput {...common} fullWidth={f.kind === 'url'} parse={keepText} />;
  }
}

/** The list filters of `spec`: search first (always shown), then the filterable fields. */
export function filtersFor(spec: ResourceSpec): ReactElement[] {
  const out: ReactElement[] = [];
  if (spec.search) out.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const f of spec.fields.filter((f) => f.filter)) {
    if (f.filter === 'range') {
      for (const end of ['gte', 'lte']) {
        const source = `${f.source}_${end}`;
        out.push(<JstDateTimeInput key={source} source={source} label={`resources.${spec.name}.fields.${source}`} />);
      }
      continue;
    }
    const shown = { source: f.source, alwaysOn: f.alwaysOn };
    switch (f.kind) {
      case 'boolean':
        out.push(<NullableBooleanInput key={f.source} {...shown} />);
        break;
      case 'select':
        out.push(<SelectInput key={f.source} {...shown} choices={f.choices ?? []} />);
        break;
      case 'reference':
        out.push(<ReferencePicker key={f.source} {...shown} reference={f.reference ?? ''} />);
        break;
      case 'number':
      case 'yen':
        out.push(<NumberInput key={f.source} {...shown} />);
        break;
      case 'datetime':
        out.push(<JstDateTimeInput key={f.source} {...shown} />);
        break;
      default:
        out.push(<TextInput key={f.source} {...shown} />);
    }
  }
  return out;
}

function BulkChange({ bulk }: { bulk: BulkSpec }) {
  return <BulkUpdateButton label={bulk.label} data={bulk.data} mutationMode="pessimistic" />;
}

/** The bulk actions the role may use on the list's selection, or `false` (no checkboxes). */
function useBulkActions(spec: ResourceSpec): ReactElement | false {
  const resource = useResourceContext() ?? spec.name;
  const edit = useCanAccess({ resource, action: 'edit' });
  const del = useCanAccess({ resource, action: 'delete' });
  const changes = edit.canAccess ? (spec.bulk ?? []) : [];
  const deletes = del.canAccess === true && (spec.actions === 'crud' || spec.actions === 'delete');
  if (changes.length === 0 && !deletes) return false;
  return (
    <>
      {changes.map((b) => (
        <BulkChange key={b.label} bulk={b} />
      ))}
      {deletes && <BulkDeleteButton mutationMode="pessimistic" />}
    </>
  );
}

/**
 * A phone row's second line: the list columns that hold short text or numbers (not the name
 * the first line shows), joined with " · ".
 */
export function phoneSummary(record: Record<string, unknown>, columns: FieldSpec[]): string {
  const shown = new Set(['id', 'name', 'name_ja', 'name_en', 'title', 'title_ja', 'title_en']);
  return columns
    .filter((f) => !shown.has(f.source))
    .map((f) => record[f.source])
    .filter((v): v is string | number => (typeof v === 'string' && v !== '' && v.length <= 40) || typeof v === 'number')
    .slice(0, 3)
    .join(' · ');
}

/** The list page of `spec`. */
export function listOf(spec: ResourceSpec) {
  const filters = filtersFor(spec);
  const columns = spec.fields.filter((f) => f.list);
  return function ResourceListPage() {
    const exporter = useColumnExporter(spec);
    const bulk = useBulkActions(spec);
    // A phone gets one row per record (its name, then its other short columns), not a table
    // whose columns squeeze their text to a character per line.
    const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
    const [locale] = useLocaleState();
    return (
      <List
        exporter={false}
        sort={spec.sort ?? { field: 'id', order: 'DESC' }}
        filters={filters.length > 0 ? filters : undefined}
        actions={
          <TopToolbar>
            {filters.length > 0 && <FilterButton />}
            {(spec.actions === 'crud' || spec.actions === 'create') && <CreateButton />}
            <ExportAllButton exporter={exporter} />
          </TopToolbar>
        }
        perPage={25}
      >
        {phone ? (
          <SimpleList
            rowClick="show"
            primaryText={(record) => recordName(record, locale)}
            secondaryText={(record) => phoneSummary(record, columns)}
            tertiaryText={(record) => `#${record.id}`}
          />
        ) : (
          <Datagrid rowClick="show" bulkActionButtons={bulk} sx={HEADERS_WHOLE}>
            <TextField source="id" sortable />
            {columns.map((f) => fieldFor(f, true))}
          </Datagrid>
        )}
      </List>
    );
  };
}

const editable = (spec: ResourceSpec) => spec.actions === 'crud' || spec.actions === 'edit';

/** The show page's buttons: the resource's own, then Edit where the role may edit. */
function ShowToolbar({ spec }: { spec: ResourceSpec }) {
  const Own = spec.showActions;
  const resource = useResourceContext() ?? spec.name;
  const del = useCanAccess({ resource, action: 'delete' });
  return (
    <TopToolbar>
      {Own && <Own />}
      {editable(spec) && <EditButton />}
      {spec.actions === 'delete' && del.canAccess === true && <DeleteButton mutationMode="pessimistic" />}
    </TopToolbar>
  );
}

/** The show page of `spec`. */
export function showOf(spec: ResourceSpec) {
  const Footer = spec.showFooter;
  const actions = spec.showActions || editable(spec) ? <ShowToolbar spec={spec} /> : false;
  return function ResourceShowPage() {
    return (
      <Show actions={actions} sx={FITS_THE_SCREEN}>
        <SimpleShowLayout>
          <TextField source="id" />
          {spec.fields.filter((f) => !f.filterOnly).map((f, i) => cloneElement(fieldFor(f), { key: `${f.source}-${i}` }))}
        </SimpleShowLayout>
        {Footer && <Footer />}
      </Show>
    );
  };
}

/** The form of `spec`: its inputs; on an edit of a resource with a few editable fields, the rest shown. */
function formOf(spec: ResourceSpec, context: boolean, saveLabel?: string) {
  const toolbar = saveLabel ? (
    <Toolbar>
      <SaveButton label={saveLabel} />
    </Toolbar>
  ) : undefined;
  return (
    <SimpleForm toolbar={toolbar}>
      {context &&
        spec.fields
          .filter((f) => !f.input && f.list)
          .map((f) => <Labeled key={`shown-${f.source}`}>{fieldFor(f)}</Labeled>)}
      {spec.fields.filter((f) => f.input).map((f) => inputFor(f))}
    </SimpleForm>
  );
}

/** The edit page of `spec` (pessimistic, so that server errors land beside the fields). */
export function editOf(spec: ResourceSpec) {
  const form = formOf(spec, spec.actions === 'edit');
  return function ResourceEditPage() {
    return (
      <Edit mutationMode="pessimistic" redirect="show">
        {form}
      </Edit>
    );
  };
}

/** The create page of `spec`. */
export function createOf(spec: ResourceSpec) {
  const form = formOf(spec, false, spec.createLabel);
  return function ResourceCreatePage() {
    return <Create redirect="show">{form}</Create>;
  };
}

/** Everything react-admin's `<Resource>` needs of `spec` (but its name and icon). */
export function pagesOf(spec: ResourceSpec) {
  return {
    list: listOf(spec),
    show: showOf(spec),
    ...(editable(spec) ? { edit: editOf(spec) } : {}),
    ...(spec.actions === 'crud' || spec.actions === 'create' ? { create: createOf(spec) } : {}),
    recordRepresentation: (record: Record<string, unknown>) => recordNameForTitle(record),
  };
}

function recordNameForTitle(record: Record<string, unknown>): string {
  return recordName(record, storedLocale());
}
