/**
 * A record's 3-D model on its show page (a box submission's avatar, an asset version's GLB or
 * VRM): `GET /admin/api/<resource>/<id>/file`, drawn by `@vmarket/viewer` — the same loader and
 * scene as the exhibitor's own asset page, turned with the mouse, a finger or the arrow keys.
 * Nothing is fetched until staff ask (a model is megabytes; three.js some 800 KB more). Without
 * WebGL, or when the file cannot be drawn, says so; the file's report stays the judge.
 */
import { Box, Button, Typography } from '@mui/material';
import { startPreview } from '@vmarket/viewer/lazy';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';

type State = 'idle' | 'loading' | 'ready' | 'failed';

interface Props {
  /** The console resource whose records hold the file. */
  resource: string;
  /** Whether a record has a model to draw (default: every record). */
  when?: (record: Record<string, unknown>) => boolean;
}

/** The preview of the shown record of `resource`. */
export function ModelPreview({ resource, when }: Props) {
  const record = useRecordContext<Record<string, unknown>>();
  const translate = useTranslate();
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<State>('idle');
  const [size, setSize] = useState<[number, number, number] | null>(null);
  /** Whether staff asked for 3D (once asked, the view stays until the page goes). */
  const [requested, setRequested] = useState(false);
  const id = record?.id;
  const url = id === undefined ? null : `/admin/api/${resource}/${String(id)}/file`;

  useEffect(() => {
    if (!requested || !url || !canvas.current || !frame.current) return undefined;
    setState('loading');
    return startPreview(canvas.current, url, frame.current, {
      ready: (drawn) => {
        setSize(drawn);
        setState('ready');
      },
      failed: () => setState('failed'),
    });
  }, [requested, url]);

  if (!record || !url || (when && !when(record))) return null;
  const metres = size?.map((m) => m.toFixed(2));
  return (
    <Box sx={{ px: 2, pb: 2 }} data-testid="console-model-preview" data-state={state}>
      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        {translate('admin.model_preview.title')}
      </Typography>
      {state === 'idle' && (
        <Button variant="outlined" onClick={() => setRequested(true)} data-testid="console-model-open">
          {translate('admin.model_preview.open')}
        </Button>
      )}
      <Box
        ref={frame}
        tabIndex={state === 'ready' ? 0 : -1}
        hidden={state === 'idle' || state === 'failed'}
        aria-label={translate('admin.model_preview.help')}
        sx={{ width: '100%', maxWidth: 480, aspectRatio: '1 / 1', mt: 1, outlineOffset: 2 }}
      >
        <canvas ref={canvas} style={{ width: '100%', height: '100%', display: 'block', touchAction: 'none' }} />
      </Box>
      <Typography role="status" sx={{ mt: 1 }} data-testid="console-model-status">
        {state === 'loading' && translate('admin.model_preview.loading')}
        {state === 'ready' && metres && translate('admin.model_preview.size', { x: metres[0], y: metres[1], z: metres[2] })}
        {state === 'failed' && translate('admin.model_preview.failed')}
      </Typography>
    </Box>
  );
}

/** A show-page footer previewing the records of `resource` (those `when` says have a model). */
export function modelPreview(resource: string, when?: Props['when']): ComponentType {
  return function RecordModelPreview() {
    return <ModelPreview resource={resource} {...(when ? { when } : {})} />;
  };
}
