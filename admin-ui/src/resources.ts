/**
 * The resources of the console. Each lives in its own folder (`src/<resource>/index.ts`)
 * exporting `{ list, edit, create, show, icon }`, and is registered here with its REST name
 * under `/admin/api/<name>`, e.g. `{ name: 'circles', ...circles }`.
 */
import type { ResourceProps } from 'react-admin';

export const RESOURCES: ResourceProps[] = [];
