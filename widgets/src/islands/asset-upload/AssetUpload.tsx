/**
 * Island `asset-upload` (/mypage/booth-maker/assets/upload): choose the kind of asset (or, for a
 * new version, the asset's own), name it, drop or pick files, and watch each one go up with its
 * progress, speed and time left. Files up to the kind's one-request size go in one request;
 * larger ones in parts ({@link Transfer}), which pause and resume, survive a dropped connection
 * (parts are sent again once the browser is online) and resume after a reload when the same file
 * is chosen again. Each finished file links to its asset's page, where the checks run.
 *
 * Sizes are checked here against the kind's ceiling before anything is sent; the server checks
 * again and decides the type from the bytes.
 */
import { useCallback, useId, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { ApiError } from '../../api';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import { openAsset, openVersion, recall, remember, sendSmall, sendSnapshot, uploaderPorts, type Opened, type Remembered } from './client';
import { baseName, formatBytes, formatDuration } from './format';
import { Transfer, type Progress } from './transfer';
import './asset-upload.css';

/** An upload kind, as the page hands it over. */
export interface Kind {
  label: string;
  name: string;
  kinds: string;
  accept: string;
  max_bytes: number;
  max_size: string;
  single_request_max_bytes: number;
}

export interface AssetUploadProps {
  lang: Lang;
  kinds: Kind[];
  /** Set for a new version of this asset. */
  asset?: { id: number; name: string } | null;
  /** The asset pages' path prefix (`/mypage/booth-maker/assets/`). */
  asset_href: string;
}

/** A transfer in parts and what it needs to finish. */
interface Job {
  transfer: Transfer;
  file: File;
  /** Where its upload is remembered (per kind, or per asset for a new version). */
  scope: string;
  remembered: Remembered;
}

type Phase = 'sending' | 'paused' | 'completing' | 'done' | 'error';

interface Item {
  key: number;
  file: File;
  phase: Phase;
  progress: Progress;
  error: string | null;
  href: string | null;
  /** The 3D snapshot drawn from the file once it is up. */
  snapshot?: 'sent' | 'skipped' | 'failed';
}

function errorText(err: unknown, t: ReturnType<typeof useT>): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return t('asset_upload.error.network');
    const details = err.details.map((d) => d.message).join(' ');
    return details ? `${err.message} ${details}` : err.message;
  }
  return t('asset_upload.error.network');
}

export default function AssetUpload({ lang, kinds, asset, asset_href }: AssetUploadProps) {
  const t = useT();
  const id = useId();
  const [label, setLabel] = useState(kinds[0]?.label ?? '');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [items, setItems] = useState<Item[]>([]);
  const jobs = useRef(new Map<number, Job>());
  const nextKey = useRef(1);
  const update = useCallback((key: number, change: Partial<Item>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);
  const kind = kinds.find((k) => k.label === label) ?? kinds[0];
  if (!kind) return <p className="form-notice">{t('asset_upload.no_kinds')}</p>;

  const choose = (list: FileList | null): void => {
    const chosen = list ? Array.from(list) : [];
    setFiles(asset ? chosen.slice(0, 1) : chosen);
    setFormError(null);
    const first = chosen[0];
    if (chosen.length === 1 && first && !name) setName(baseName(first.name));
  };

  /**
   * Runs (or resumes) the transfer of item `key`; when it is done, forgets the upload and sends
   * the file's snapshot. A refusal of the upload itself (expired, finished elsewhere) forgets it.
   */
  const drive = async (key: number, job: Job): Promise<void> => {
    update(key, { phase: 'sending', error: null });
    try {
      const result = await job.transfer.run();
      if (result === 'paused') {
        update(key, { phase: 'paused' });
        return;
      }
      remember(job.file, job.scope, null);
      update(key, { phase: 'completing' });
      const { asset_id, version_id } = job.remembered;
      update(key, { phase: 'done', snapshot: await sendSnapshot(lang, job.file, asset_id, version_id) });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 409)) remember(job.file, job.scope, null);
      update(key, { phase: 'error', error: errorText(err, t) });
    }
  };

  const start = async (file: File, assetName: string): Promise<void> => {
    const key = nextKey.current++;
    const scope = asset ? `asset-${asset.id}` : `kind-${kind.label}`;
    const empty: Progress = { sent: 0, total: file.size, bytesPerSecond: 0, secondsLeft: null, retrying: false };
    setItems((list) => [...list, { key, file, phase: 'sending', progress: empty, error: null, href: null }]);
    const onProgress = (progress: Progress): void => update(key, { progress });
    try {
      if (file.size <= kind.single_request_max_bytes) {
        const started = performance.now();
        const temporary = await sendSmall(
          file,
          lang,
          (loaded) => {
            const elapsed = (performance.now() - started) / 1000;
            const speed = elapsed > 0 ? loaded / elapsed : 0;
            onProgress({ ...empty, sent: loaded, bytesPerSecond: speed, secondsLeft: speed > 0 ? (file.size - loaded) / speed : null });
          },
          new AbortController().signal,
        );
        const opened = asset
          ? await openVersion(lang, asset.id, file, temporary)
          : await openAsset(lang, { label: kind.label, name: assetName, description }, file, temporary);
        update(key, { phase: 'completing', progress: { ...empty, sent: file.size }, href: `${asset_href}${opened.asset.id}` });
        update(key, { phase: 'done', snapshot: await sendSnapshot(lang, file, opened.asset.id, opened.version.id) });
        return;
      }
      let remembered = recall(file, scope);
      if (!remembered) {
        const opened: Opened = asset
          ? await openVersion(lang, asset.id, file)
          : await openAsset(lang, { label: kind.label, name: assetName, description }, file);
        if (!opened.upload) throw new ApiError(500, 'invalid_response', 'no upload was opened');
        remembered = { upload_id: opened.upload.id, asset_id: opened.asset.id, version_id: opened.version.id };
        remember(file, scope, remembered);
      }
      update(key, { href: `${asset_href}${remembered.asset_id}` });
      const transfer = new Transfer(file, remembered.upload_id, uploaderPorts(lang), { onProgress });
      const job: Job = { transfer, file, scope, remembered };
      jobs.current.set(key, job);
      await drive(key, job);
    } catch (err) {
      update(key, { phase: 'error', error: errorText(err, t) });
    }
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (files.length === 0) {
      setFormError(t('asset_upload.error.no_file'));
      return;
    }
    const empty = files.find((f) => f.size === 0);
    if (empty) {
      setFormError(t('asset_upload.error.empty', { file: empty.name }));
      return;
    }
    const big = files.find((f) => f.size > kind.max_bytes);
    if (big) {
      setFormError(t('asset_upload.error.too_large', { file: big.name, max: kind.max_size }));
      return;
    }
    if (!asset && files.length === 1 && !name.trim()) {
      setFormError(t('asset_upload.error.no_name'));
      return;
    }
    setFormError(null);
    for (const file of files) void start(file, files.length === 1 && name.trim() ? name.trim() : baseName(file.name));
    setFiles([]);
    setName('');
  };

  const pause = (key: number): void => jobs.current.get(key)?.transfer.pause();
  const resume = (key: number): void => {
    const job = jobs.current.get(key);
    if (job) void drive(key, job);
  };

  const onDrop = (event: DragEvent): void => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files);
  };

  return (
    <div className="asset-upload">
      <form onSubmit={submit} noValidate aria-describedby={formError ? `${id}-error` : undefined}>
        {!asset && (
          <fieldset className="asset-upload__kinds">
            <legend>{t('asset_upload.kind')}</legend>
            {kinds.map((k) => (
              <label key={k.label} className="asset-upload__kind">
                <input
                  type="radio"
                  name={`${id}-kind`}
                  value={k.label}
                  checked={k.label === label}
                  onChange={() => setLabel(k.label)}
                />
                <span>
                  <strong>{k.name}</strong>
                  <small>{t('asset_upload.kind_detail', { kinds: k.kinds, max: k.max_size })}</small>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {!asset && (
          <div className="form-field">
            <label htmlFor={`${id}-name`}>{t('asset_upload.name')}</label>
            <input
              id={`${id}-name`}
              value={name}
              maxLength={128}
              onChange={(e: ChangeEvent<HTMLInputElement>) => setName(e.target.value)}
              aria-describedby={`${id}-name-hint`}
            />
            <small id={`${id}-name-hint`}>{t('asset_upload.name_hint')}</small>
          </div>
        )}
        {!asset && (
          <div className="form-field">
            <label htmlFor={`${id}-description`}>{t('asset_upload.description')}</label>
            <textarea
              id={`${id}-description`}
              value={description}
              maxLength={2048}
              rows={3}
              onChange={(e: ChangeEvent<HTMLTextAreaElement>) => setDescription(e.target.value)}
            />
          </div>
        )}
        <div
          className={`asset-upload__drop${dragging ? ' asset-upload__drop--over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="drop-zone"
        >
          <label htmlFor={`${id}-file`}>{t(asset ? 'asset_upload.choose_one' : 'asset_upload.choose')}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept={kind.accept}
            multiple={!asset}
            onChange={(e) => choose(e.target.files)}
            data-testid="file-input"
          />
          <small>{t('asset_upload.drop_hint', { kinds: kind.kinds, max: kind.max_size })}</small>
          {files.length > 0 && (
            <ul className="asset-upload__chosen">
              {files.map((f) => (
                <li key={`${f.name}-${f.size}`}>
                  {f.name} ({formatBytes(f.size)})
                </li>
              ))}
            </ul>
          )}
        </div>
        {formError && (
          <p id={`${id}-error`} className="form-error" role="alert">
            {formError}
          </p>
        )}
        <button className="button button--primary" type="submit" data-testid="upload-submit">
          {t('asset_upload.submit')}
        </button>
      </form>
      {items.length > 0 && (
        <section aria-labelledby={`${id}-progress`}>
          <h2 id={`${id}-progress`}>{t('asset_upload.progress_title')}</h2>
          <ul className="asset-upload__items">
            {items.map((item) => (
              <UploadItem key={item.key} item={item} onPause={() => pause(item.key)} onResume={() => resume(item.key)} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function UploadItem({ item, onPause, onResume }: { item: Item; onPause: () => void; onResume: () => void }) {
  const t = useT();
  const { progress } = item;
  const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  const state =
    item.phase === 'sending' && progress.retrying ? t('asset_upload.state.retrying') : t(`asset_upload.state.${item.phase}`);
  const canResume = item.phase === 'paused' || (item.phase === 'error' && item.href !== null && item.file.size > 0);
  return (
    <li
      className={`asset-upload__item asset-upload__item--${item.phase}`}
      data-testid="upload-item"
      data-phase={item.phase}
      data-snapshot={item.snapshot}
    >
      <p className="asset-upload__file">
        <strong>{item.file.name}</strong> <small>{formatBytes(item.file.size)}</small>
      </p>
      <progress max={100} value={percent} aria-label={t('asset_upload.progress_of', { file: item.file.name })}>
        {percent}%
      </progress>
      <p className="asset-upload__figures" aria-live="polite">
        <span data-testid="upload-state">{state}</span> · {percent}%
        {item.phase === 'sending' && progress.bytesPerSecond > 0 && (
          <>
            {' · '}
            {t('asset_upload.speed', { speed: `${formatBytes(progress.bytesPerSecond)}/s` })}
            {progress.secondsLeft !== null && <> · {t('asset_upload.left', { time: formatDuration(progress.secondsLeft) })}</>}
          </>
        )}
      </p>
      {item.error && (
        <p className="form-error" role="alert">
          {item.error}
        </p>
      )}
      <p className="asset-upload__actions">
        {item.phase === 'sending' && item.href && (
          <button type="button" className="button" onClick={onPause} data-testid="upload-pause">
            {t('asset_upload.pause')}
          </button>
        )}
        {canResume && (
          <button type="button" className="button" onClick={onResume} data-testid="upload-resume">
            {t('asset_upload.resume')}
          </button>
        )}
        {item.href && (item.phase === 'done' || item.phase === 'paused') && (
          <a href={item.href} data-testid="upload-open">
            {t(item.phase === 'done' ? 'asset_upload.open_done' : 'asset_upload.open')}
          </a>
        )}
      </p>
    </li>
  );
}
