/**
 * Every call the booth maker makes (`/api/v1/booth_maker`), over the shared {@link apiRequest}
 * (same-origin cookies, `?lang=`, the CSRF header, {@link ApiError} on failure). The draft can
 * also go with `keepalive`, so that a change made just before the page closes still arrives.
 */
import { apiRequest } from '../../api';
import type { Lang } from '../../i18n';
import type { DraftSaved, EditorView, SceneJson, SceneSaved, Submitted } from './types';

/** The calls for one scene. */
export interface BoothClient {
  load(): Promise<EditorView>;
  /** Saves the draft; rejects with `draft_conflict` (409) when `revision` is not the newest. */
  putDraft(revision: number, scene: SceneJson, keepalive?: boolean): Promise<DraftSaved>;
  /** Makes the draft at `revision` the saved scene. */
  save(revision: number): Promise<SceneSaved>;
  /** Submits the draft at `revision` for a slot. */
  submit(slotId: number, revision: number): Promise<Submitted>;
}

/** The client of scene `sceneId`, answering in `lang`. */
export function boothClient(sceneId: number, lang: Lang, fetchImpl: typeof fetch = (input, init) => fetch(input, init)): BoothClient {
  const base = `/api/v1/booth_maker/scenes/${encodeURIComponent(String(sceneId))}`;
  return {
    load: async () => (await apiRequest(base, { lang, fetch: fetchImpl })) as EditorView,
    putDraft: async (revision, scene, keepalive = false) =>
      (await apiRequest(`${base}/draft`, {
        lang,
        method: 'PUT',
        body: { revision, scene },
        fetch: keepalive ? (input, init) => fetchImpl(input, { ...init, keepalive: true }) : fetchImpl,
      })) as DraftSaved,
    save: async (revision) => (await apiRequest(`${base}/save`, { lang, method: 'POST', body: { revision }, fetch: fetchImpl })) as SceneSaved,
    submit: async (slotId, revision) =>
      (await apiRequest(`${base}/submissions`, {
        lang,
        method: 'POST',
        body: { slot_id: slotId, revision },
        fetch: fetchImpl,
      })) as Submitted,
  };
}
