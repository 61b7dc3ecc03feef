/**
 * The asset uploader calls the upload page makes: open an asset or a new version (`POST
 * /uploader/assets`, `GET /uploader/assets/{id}/update_url`), send a small file in one request
 * (`POST /uploader/temporary_uploads`, through XHR for its progress), and the {@link Ports} of a
 * multipart transfer over the typed client. Resumable uploads are remembered per file in
 * `localStorage`, so choosing the same file again after a reload resumes it.
 */
import { ApiError, api, apiUrl, readApiError, type Schemas } from '../../api';
import type { Lang } from '../../i18n';
import { readMeta } from '../../meta';
import { sleep, whenOnline, xhrPart, type Ports, type UploadState } from './transfer';

export type Opened = Schemas['Opened'];

/** What the user chose for a new asset. */
export interface NewAssetInput {
  label: string;
  name: string;
  description: string;
}

/** The file's identity for resuming: name, size and modification time. */
function fileKey(file: File, scope: string): string {
  return `vmarket.upload.${scope}.${file.name}.${file.size}.${file.lastModified}`;
}

/** A remembered, unfinished upload of this file. */
export interface Remembered {
  upload_id: string;
  asset_id: number;
  version_id: number;
}

export function recall(file: File, scope: string, storage: Storage | null = safeStorage()): Remembered | null {
  try {
    const raw = storage?.getItem(fileKey(file, scope));
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (value && typeof value === 'object' && 'upload_id' in value && 'asset_id' in value && 'version_id' in value) {
      return value as Remembered;
    }
  } catch {
    // A broken entry is as good as none.
  }
  return null;
}

export function remember(file: File, scope: string, value: Remembered | null, storage: Storage | null = safeStorage()): void {
  try {
    if (value) storage?.setItem(fileKey(file, scope), JSON.stringify(value));
    else storage?.removeItem(fileKey(file, scope));
  } catch {
    // Private mode or a full store: resuming after a reload is lost, nothing else.
  }
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Sends `file` in one request, reporting bytes sent; resolves to the temporary upload's id. */
export function sendSmall(file: File, lang: Lang, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.open('POST', apiUrl('/uploader/temporary_uploads', lang));
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readMeta('csrf-token');
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onload = () => {
      const res = new Response(xhr.responseText, { status: xhr.status });
      if (xhr.status >= 200 && xhr.status < 300) {
        res.json().then((body: Schemas['TemporaryView']) => resolve(body.id), reject);
      } else {
        readApiError(res).then(reject, reject);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'network error'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.send(form);
  });
}

/** Opens a new asset with its first version (from a temporary upload when one is given). */
export function openAsset(lang: Lang, input: NewAssetInput, file: File, temporaryId?: string): Promise<Opened> {
  return api.post('/uploader/assets', {
    lang,
    body: {
      asset_setting_label: input.label,
      name: input.name,
      description: input.description,
      file_name: file.name,
      byte_size: file.size,
      temporary_upload_id: temporaryId ?? null,
    },
  });
}

/** Opens a new version of asset `id`. */
export function openVersion(lang: Lang, id: number, file: File, temporaryId?: string): Promise<Opened> {
  return api.get('/uploader/assets/{id}/update_url', {
    lang,
    path: { id },
    query: { file_name: file.name, byte_size: file.size, temporary_upload_id: temporaryId },
  });
}

/** The ports of a multipart transfer: parts by XHR, the rest through the typed client. */
export function uploaderPorts(lang: Lang): Ports {
  return {
    sendPart: xhrPart,
    refresh: async (id) => (await api.get('/uploader/uploads/{id}', { lang, path: { id } })) as UploadState,
    complete: async (id, parts) => {
      await api.post('/uploader/uploads/{id}/complete', { lang, path: { id }, body: { parts } });
    },
    sleep,
    online: whenOnline,
    now: () => performance.now(),
  };
}

/** Files up to this size get a snapshot drawn in the browser (a larger model would strain it). */
export const SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024;

/** Whether `file` is a binary glTF (GLB or VRM), by its first bytes. */
export async function isGlb(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head.length === 4 && String.fromCharCode(...head) === 'glTF';
}

/**
 * Draws a 3D file the user just uploaded, from the file itself, and sends the picture as the
 * version's snapshot (the server makes the thumbnails from it): `sent`, `skipped` (not a GLB or
 * VRM, too large, or a version that failed its checks already) or `failed` (no WebGL, a file three.js cannot draw, a refused snapshot).
 */
export async function sendSnapshot(lang: Lang, file: File, assetId: number, versionId: number): Promise<'sent' | 'skipped' | 'failed'> {
  if (file.size > SNAPSHOT_MAX_BYTES || !(await isGlb(file))) return 'skipped';
  const url = URL.createObjectURL(file);
  try {
    const { renderSnapshot } = await import('@vmarket/viewer');
    const png = await renderSnapshot(url);
    if (!png) return 'failed';
    const body = new FormData();
    body.append('snapshot', png, 'snapshot.png');
    await api.put('/uploader/assets/{id}/versions/{version_id}', { lang, path: { id: assetId, version_id: versionId }, body });
    return 'sent';
  } catch (err) {
    // A version that already failed its checks takes no picture (409 `version_closed`).
    if (err instanceof ApiError && err.status === 409) return 'skipped';
    console.warn('[vmarket] no snapshot for', file.name, err);
    return 'failed';
  } finally {
    URL.revokeObjectURL(url);
  }
}
