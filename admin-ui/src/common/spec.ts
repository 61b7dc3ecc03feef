/**
 * A console resource described as data: its fields as the server sends and takes them (see the
 * resource's file in `src/admin/api/resources/`), which of them the list shows, filters and
 * sorts on (the server's `COLUMNS`), and what staff may do. `views.tsx` builds the list, show,
 * edit and create pages from it.
 */
import type { ComponentType } from 'react';
import type { Choice } from './choices';

export type FieldKind =
  | 'text'
  | 'multiline'
  | 'number'
  | 'yen'
  | 'boolean'
  | 'datetime'
  | 'url'
  | 'email'
  | 'image'
  | 'select'
  | 'choices'
  | 'reference'
  | 'tags'
  | 'json'
  | 'phases'
  | 'rows';

export interface FieldSpec {
  /** The record field (also the input's name). */
  source: string;
  kind: FieldKind;
  /** `select` and `choices` (several of a vocabulary): the vocabulary. */
  choices?: Choice[];
  /**
   * `select`: the record's own choices instead of `choices` — its list `record[choicesFrom]` of
   * `{ id, name }` with names shown as they are (a slot's world's areas).
   */
  choicesFrom?: string;
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
  /** A filter shown at once (not behind the "add filter" menu). */
  alwaysOn?: boolean;
  /** Catalogue key shown when the record has no value. */
  emptyText?: string;
  /**
   * `rows`: the columns of each row (with `input`: edited in the form, one line per row),
   * labelled as the fields of `labels` (default: `reference`); with `reference`, a row opens
   * that resource's record.
   */
  columns?: FieldSpec[];
  /** `rows`: the resource (or label group) whose field labels name the columns. */
  labels?: string;
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
  /**
   * The server's `ACTIONS`: everything, read and edit, read and create (changes go through the
   * show page's own buttons), read and delete (records made elsewhere that staff may remove), or
   * read only.
   */
  actions: 'crud' | 'edit' | 'create' | 'delete' | 'read';
  bulk?: BulkSpec[];
  /** Buttons of the show page (the resource's own actions: a status change, a draw's steps). */
  showActions?: ComponentType;
  /** Shown below the show page's fields (a draw's result table). */
  showFooter?: ComponentType;
  /** Catalogue key of the create form's save button (a draw's "Commit"). */
  createLabel?: string;
}
