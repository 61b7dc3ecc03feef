/**
 * Island `model-preview` (/mypage/booth-maker/assets/{id}): the newest uploaded GLB or VRM of
 * the asset in 3D (three.js and @pixiv/three-vrm), turned with the mouse, a finger or the arrow
 * keys. The server's picture shows until the user asks for 3D: the model and some 800 KB of
 * three.js are fetched only then (phones on a metered line, slow GPUs). Without WebGL, or when
 * the file cannot be drawn, says so and keeps the picture.
 */
import { startPreview } from '@vmarket/viewer/lazy';
import { useEffect, useRef, useState } from 'react';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import './model-preview.css';

export interface ModelPreviewProps {
  lang: Lang;
  url: string;
  kind: string;
  /** The server's picture of the version, shown until the 3D view opens. */
  picture?: string | null;
  /** The picture's text alternative. */
  picture_alt?: string;
}

type State = 'idle' | 'loading' | 'ready' | 'failed';

export default function ModelPreview({ url, picture, picture_alt }: ModelPreviewProps) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<State>('idle');
  const [size, setSize] = useState<[number, number, number] | null>(null);
  /** Whether the user asked for 3D (once asked, the view stays until the page goes). */
  const [requested, setRequested] = useState(false);

  useEffect(() => {
    if (!requested) return undefined;
    if (!canvas.current || !frame.current) return undefined;
    setState('loading');
    return startPreview(canvas.current, url, frame.current, {
      ready: (drawn) => {
        setSize(drawn);
        setState('ready');
      },
      failed: () => setState('failed'),
    });
  }, [requested, url]);

  const metres = size?.map((m) => m.toFixed(2));
  return (
    <div className="model-preview" data-state={state} data-testid="model-preview">
      {state === 'idle' && (
        <>
          {picture && <img className="model-preview__picture" src={picture} alt={picture_alt ?? ''} width={320} height={320} />}
          <p>
            <button type="button" className="button" onClick={() => setRequested(true)} data-testid="preview-open">
              {t('model_preview.open')}
            </button>
          </p>
        </>
      )}
      <div
        className="model-preview__frame"
        ref={frame}
        tabIndex={state === 'ready' ? 0 : -1}
        hidden={state === 'idle'}
        aria-describedby="model-preview-help"
      >
        <canvas
          ref={canvas}
          role="img"
          aria-label={t('model_preview.label', { size: metres ? `${metres[0]} × ${metres[2]} × ${metres[1]} m` : '' })}
          data-testid="preview-canvas"
        />
      </div>
      <p id="model-preview-help" className="model-preview__help" aria-live="polite">
        {state === 'loading' && t('model_preview.loading')}
        {state === 'ready' && t('model_preview.help')}
        {state === 'failed' && t('model_preview.failed')}
      </p>
    </div>
  );
}
