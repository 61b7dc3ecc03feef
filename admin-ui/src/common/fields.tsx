/**
 * Small fields and inputs the console's pages share: names in the console's language, instants
 * in Japan time, references picked by name, JSON shown as text.
 */
import { Chip } from '@mui/material';
import { useCallback, useEffect, useRef } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  ImageField,
  ImageInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  type SelectInputProps,
  TextInput,
  type TextInputProps,
  type Validator,
  useLocaleState,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { Choice } from './choices';
import { recordName } from './names';
import { formatJst, fromJstInput, toJstInput } from './time';

/** The record's name in the console's language (for references, chips and titles). */
export function RecordName() {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  return <span>{recordName(record, locale)}</span>;
}

/** The record's name as a chip (hub tags of a notification). */
export function RecordChip() {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  return <Chip size="small" label={recordName(record, locale)} />;
}

/** A function naming records in the console's language, for pickers. */
export function useRecordName(): (record: Record<string, unknown>) => string {
  const [locale] = useLocaleState();
  return (record) => recordName(record, locale);
}

export interface SourceProps {
  source: string;
  label?: string;
  sortable?: boolean;
  /** Catalogue key shown when there is no value. */
  emptyText?: string;
}

/** A picture, described by its field's label (react-admin's `<img>` has no text otherwise). */
export function PictureField({ source, inList }: SourceProps & { inList?: boolean }) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const label = translate(`resources.${resource}.fields.${source}`);
  return <ImageField source={source} title={label} sx={inList ? THUMBNAIL : undefined} />;
}

const THUMBNAIL = { '& img': { maxWidth: 96, maxHeight: 64, objectFit: 'contain', margin: 0 } };

/** The picture files the server takes (PNG, JPEG, WebP, GIF), for the file picker. */
export const PICTURE_TYPES = { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/webp': ['.webp'], 'image/gif': ['.gif'] };

/**
 * A picture field's input: the current picture, and a new file in its place, which the
 * dataProvider uploads when the form is saved (`/admin/api/uploads`) and stores as the field's
 * address; a refused file (type, size) gets the server's reason beside the field. Removing the
 * picture clears the field.
 */
export function PictureInput({
  source,
  validate,
  label: labelKey,
}: {
  source: string;
  validate?: Validator | Validator[];
  /** The catalogue key of its label, when not the resource's own field (a row's column). */
  label?: string;
}) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const label = translate(labelKey ?? `resources.${resource}.fields.${source}`);
  const box = useRef<HTMLDivElement>(null);
  const choose = translate('admin.images.choose', { field: label });
  useNamedRemoveButtons(box, translate('admin.images.remove', { field: label }));
  // The record holds an address; the input holds `{ src, title }` (or a chosen file).
  const format = useCallback(
    (value: unknown) => (typeof value === 'string' ? (value === '' ? null : { src: value, title: label }) : value),
    [label],
  );
  return (
    <div ref={box}>
      <ImageInput
        source={source}
        label={labelKey}
        accept={PICTURE_TYPES}
        format={format}
        validate={validate}
        helperText="admin.images.help"
        placeholder={<p>{choose}</p>}
        inputProps={{ 'aria-label': choose }}
      >
        <ImageField source="src" title="title" />
      </ImageInput>
    </div>
  );
}

/**
 * react-admin names each picture's remove button "Delete": it says which picture it removes
 * instead ("<field>: remove the picture"), kept up as pictures come and go. (The drop zone's
 * text and its file input say which field they choose: see the placeholder and `inputProps`.)
 */
function useNamedRemoveButtons(box: React.RefObject<HTMLDivElement | null>, remove: string) {
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const name = () => {
      for (const button of Array.from(root.querySelectorAll('.RaFileInputPreview-removeButton'))) {
        if (button.getAttribute('aria-label') !== remove) {
          button.setAttribute('aria-label', remove);
          button.setAttribute('title', remove);
        }
      }
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
    return () => observer.disconnect();
  }, [box, remove]);
}

/** An instant in Japan time. */
export function DateTimeField({ source, emptyText }: SourceProps) {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const shown = formatJst(record?.[source], locale);
  return <span>{shown === '' && emptyText ? translate(emptyText) : shown}</span>;
}

/** A JSON value, pretty-printed (audit snapshots). */
export function JsonField({ source }: SourceProps) {
  const record = useRecordContext();
  const value = record?.[source];
  if (value === null || value === undefined) return null;
  return (
    <pre style={{ margin: 0, fontSize: '0.8rem', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** Several values of a vocabulary, each by its label (kinds of file a setting accepts). */
export function ChoicesField({ source, choices }: SourceProps & { choices: Choice[] }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const values = record?.[source];
  if (!Array.isArray(values)) return null;
  return (
    <span>
      {values.map((v) => translate(choices.find((c) => c.id === v)?.name ?? String(v), { _: String(v) })).join(', ')}
    </span>
  );
}

/**
 * JSON edited as text (a rule set's rules): shown indented, sent as the text typed. The server
 * reads it — one validation path, its message pinned to the field.
 */
export function JsonInput(props: TextInputProps) {
  return (
    <TextInput
      {...props}
      multiline
      minRows={12}
      fullWidth
      format={(value: unknown) => (typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value, null, 2))}
      parse={(text: string) => text}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: '0.8rem' } } }}
    />
  );
}

/** A date and time typed in Japan time, sent as RFC 3339 with `+09:00`. */
export function JstDateTimeInput(props: TextInputProps) {
  return (
    <TextInput
      {...props}
      type="datetime-local"
      format={toJstInput}
      parse={fromJstInput}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

interface ReferencePickerProps {
  source: string;
  reference: string;
  label?: string;
  validate?: Validator | Validator[];
  alwaysOn?: boolean;
}

/** A reference picked by name (the server searches `q`). */
export function ReferencePicker({ source, reference, label, validate }: ReferencePickerProps) {
  const name = useRecordName();
  return (
    <ReferenceInput source={source} reference={reference}>
      <AutocompleteInput
        label={label}
        optionText={name}
        validate={validate}
        filterToQuery={(q: string) => (q ? { q } : {})}
      />
    </ReferenceInput>
  );
}

/** Several references picked by name. */
export function ReferencesPicker({ source, reference, label }: ReferencePickerProps) {
  const name = useRecordName();
  return (
    <ReferenceArrayInput source={source} reference={reference}>
      <AutocompleteArrayInput label={label} optionText={name} filterToQuery={(q: string) => (q ? { q } : {})} />
    </ReferenceArrayInput>
  );
}

/** The record's own choices `record[from]` (`{ id, name }`, names shown as they are). */
function recordChoices(record: Record<string, unknown> | undefined, from: string): Choice[] {
  const list = record?.[from];
  return Array.isArray(list) ? (list as Choice[]) : [];
}

/** A select among the record's own choices (`FieldSpec.choicesFrom`): a slot's world's areas. */
export function RecordChoicesInput({ from, ...props }: SelectInputProps & { from: string }) {
  const record = useRecordContext();
  return <SelectInput {...props} choices={recordChoices(record, from)} translateChoice={false} />;
}

interface RecordChoiceFieldProps {
  source: string;
  from: string;
  emptyText?: string;
  /** Read by the list and show layouts for the column's and field's label. */
  label?: string;
  sortable?: boolean;
}

/** The name of the record's own choice its `source` holds (`FieldSpec.choicesFrom`). */
export function RecordChoiceField({ source, from, emptyText }: RecordChoiceFieldProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const chosen = recordChoices(record, from).find((c) => String(c.id) === String(record?.[source]));
  return <span>{chosen ? chosen.name : emptyText ? translate(emptyText) : ''}</span>;
}
