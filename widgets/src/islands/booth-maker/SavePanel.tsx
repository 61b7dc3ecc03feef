/**
 * The autosave status (saving, saved at a time, error with a retry, or the conflict with another
 * tab and a button that loads the newest) and the Save button, which waits for the autosave and
 * then makes the draft the saved booth.
 */
import { useState } from 'react';
import { ApiError } from '../../api';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import { isConflict, type DraftSaver, type SaverSnapshot } from './autosave';
import type { BoothClient } from './client';
import { clockTime } from './format';
import type { SceneSaved, SceneSummary } from './types';

export interface SavePanelProps {
  lang: Lang;
  saver: DraftSaver;
  save: SaverSnapshot;
  client: BoothClient;
  scene: SceneSummary;
  onSaved(result: SceneSaved): void;
}

type SaveResult = { state: 'saving' } | { state: 'done'; result: SceneSaved } | { state: 'error'; message: string } | null;

export function SavePanel({ lang, saver, save, client, scene, onSaved }: SavePanelProps) {
  const t = useT();
  const [result, setResult] = useState<SaveResult>(null);
  const saveNow = async (): Promise<void> => {
    setResult({ state: 'saving' });
    if (!(await saver.flush())) {
      setResult({ state: 'error', message: t('booth_maker.editor.save_needs_draft') });
      return;
    }
    try {
      const saved = await client.save(saver.getSnapshot().revision);
      setResult({ state: 'done', result: saved });
      onSaved(saved);
    } catch (err) {
      if (isConflict(err)) saver.markConflict(err as ApiError);
      setResult({ state: 'error', message: err instanceof ApiError ? err.message : t('booth_maker.editor.network_error') });
    }
  };
  const status = (() => {
    switch (save.state) {
      case 'idle':
        return t('booth_maker.editor.autosave_idle');
      case 'pending':
        return t('booth_maker.editor.autosave_pending');
      case 'saving':
        return t('booth_maker.editor.autosave_saving');
      case 'saved':
        return t('booth_maker.editor.autosave_saved', { time: clockTime(save.savedAt, lang) });
      case 'error':
        return t('booth_maker.editor.autosave_error');
      case 'conflict':
        return t('booth_maker.editor.autosave_conflict');
    }
  })();
  const saved = result?.state === 'done' ? result.result.scene : scene;
  return (
    <section className="booth-maker__panel" aria-labelledby="booth-save-title">
      <h2 id="booth-save-title">{t('booth_maker.editor.save_title')}</h2>
      <p
        role="status"
        className={`booth-maker__autosave booth-maker__autosave--${save.state}`}
        data-testid="autosave"
        data-state={save.state}
        data-revision={save.revision}
      >
        {status}
      </p>
      {save.state === 'error' && (
        <button type="button" className="button" onClick={() => void saver.flush()}>
          {t('booth_maker.editor.retry')}
        </button>
      )}
      {save.state === 'conflict' && (
        <button type="button" className="button" data-testid="reload" onClick={() => window.location.reload()}>
          {t('booth_maker.editor.load_newest')}
        </button>
      )}
      <p>
        <button
          type="button"
          className="button button--primary"
          data-testid="save"
          disabled={result?.state === 'saving' || save.state === 'conflict'}
          onClick={() => void saveNow()}
        >
          {result?.state === 'saving' ? t('booth_maker.editor.saving') : t('booth_maker.editor.save')}
        </button>
      </p>
      <p className="booth-maker__note" role="status" data-testid="save-result" data-state={result?.state ?? 'none'}>
        {result?.state === 'error' && result.message}
        {result?.state !== 'error' &&
          t('booth_maker.editor.saved_scene', { revision: saved.revision, time: clockTime(saved.updated_at, lang) })}
      </p>
    </section>
  );
}
