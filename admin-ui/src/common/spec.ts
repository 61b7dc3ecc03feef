/**
 * A console resource described as data: its fields as the server sends and takes them (see the
 * resource's file in `src/admin/api/resources/`), which of them the list shows, filters and
 * sorts on (the server's `COLUMNS`), and what staff may do. `views.tsx` builds the list, show,
 * edit and create pages from it.
 */
import type { Choice } from './choices';

export type FieldKind =
  | 'text'
  | 'multiline'
  | 'number'
  | 'boolean'
  | 'datetime'
  | 'url'
  | 'email'
  | 'image'
  | 'select'
  | 'reference'
  | 'tags'
  | 'json'
  | 'phases';

export interface FieldSpec {
  /** The record field (also the input's name). */
  source: string;
  kind: FieldKind;
  /** `select`: the vocabulary. */
  choices?: Choice[];
  /** `reference` / `tags`: the resource referred to. */
  reference?: string;
  /** The server requires it. */
  required?: boolean;
  /** Staff send it (otherwise the server computes or keeps it: shown, never edited). */
  input?: boolean;
  /** A list column. */
  list?: boolean;
  /** The server sorts on it (its `COLUMNS.sort`). */
  sortable?: boolean;
  /** The server filters on it (its `COLUMNS.filter`); `range`: `<field>_gte` / `<field>_lte`. */
  filter?: boolean | 'range';
  /** A new record's value (numbers the server needs, such as display orders). */
  defaultValue?: unknown;
  /** Only a filter (records do not carry it). */
  filterOnly?: boolean;
}

/** A bulk change of the list's selection: `PUT` of `data` to each selected record. */
export interface BulkSpec {
  /** Catalogue key of the button's label. */
  label: string;
  data: Record<string, unknown>;
}

export interface ResourceSpec {
  /** The REST name (`/admin/api/<name>`). */
  name: string;
  fields: FieldSpec[];
  /** The server searches `q` (its `COLUMNS.search` is not empty). */
  search?: boolean;
  /** The list's first order. */
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** The server's `ACTIONS`: everything, read and edit, or read only. */
  actions: 'crud' | 'edit' | 'read';
  bulk?: BulkSpec[];
}
