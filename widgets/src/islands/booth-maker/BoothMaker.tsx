/**
 * Island `booth-maker` (/mypage/booth-maker/scenes/{id}/edit): the browser's 3D booth editor.
 * Loads the scene, its home, the user's furniture, the rules and the open slots with
 * `GET /api/v1/booth_maker/scenes/{scene_id}`, then hands them to the {@link Editor}; says so
 * when that fails, with a retry and the way back to the list.
 */
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../api';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import { boothClient } from './client';
import { Editor } from './Editor';
import type { EditorView } from './types';
import './booth-maker.css';

export interface BoothMakerProps {
  lang: Lang;
  scene_id: number;
  list_href: string;
}

type Load = { state: 'loading' } | { state: 'ready'; view: EditorView } | { state: 'failed'; status: number };

export default function BoothMaker({ lang, scene_id, list_href }: BoothMakerProps) {
  const t = useT();
  const client = useMemo(() => boothClient(scene_id, lang), [scene_id, lang]);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let gone = false;
    setLoad({ state: 'loading' });
    client.load().then(
      (view) => !gone && setLoad({ state: 'ready', view }),
      (err: unknown) => {
        console.warn('[vmarket] the booth could not be loaded', err);
        if (!gone) setLoad({ state: 'failed', status: err instanceof ApiError ? err.status : 0 });
      },
    );
    return () => {
      gone = true;
    };
  }, [client, attempt]);

  return (
    <div className="booth-maker" data-testid="booth-editor" data-state={load.state}>
      {load.state === 'loading' && (
        <p role="status" className="booth-maker__note">
          {t('booth_maker.editor.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <div role="alert" className="booth-maker__failed">
          <p>{t(load.status === 404 ? 'booth_maker.editor.not_found' : 'booth_maker.editor.load_failed')}</p>
          <p>
            {load.status !== 404 && (
              <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
                {t('booth_maker.editor.retry')}
              </button>
            )}{' '}
            <a href={list_href}>{t('booth_maker.editor.back_to_list')}</a>
          </p>
        </div>
      )}
      {load.state === 'ready' && <Editor lang={lang} view={load.view} client={client} />}
    </div>
  );
}
