/**
 * Island `asset-status` (/mypage/booth-maker/assets/{id}): while a version moves through the
 * pipeline (waiting → analysing → validating → converting), asks the uploader every two seconds
 * how far it is, says so in a live region, and reloads the page once every watched version is
 * done, so that the server shows its report. After ten minutes it stops and offers the reload.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';

export interface AssetStatusProps {
  lang: Lang;
  asset_id: number;
  versions: { id: number; status: string }[];
}

/** Statuses a version leaves on its own. */
export const MOVING: ReadonlySet<string> = new Set(['waiting', 'analyzing', 'validating', 'converting']);
export const POLL_MS = 2000;
export const GIVE_UP_MS = 10 * 60 * 1000;

/** Whether every watched version has settled, given the statuses now (by version id). */
export function settled(watched: readonly number[], now: ReadonlyMap<number, string>): boolean {
  return watched.every((id) => !MOVING.has(now.get(id) ?? 'waiting'));
}

export default function AssetStatus({ lang, asset_id, versions }: AssetStatusProps) {
  const t = useT();
  const [statuses, setStatuses] = useState(() => new Map(versions.map((v) => [v.id, v.status])));
  const [stopped, setStopped] = useState(false);

  useEffect(() => {
    const watched = versions.map((v) => v.id);
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const poll = async (): Promise<void> => {
      try {
        const asset = await api.get('/uploader/assets/{id}', { lang, path: { id: asset_id } });
        const now = new Map(asset.asset_versions.map((v) => [v.id, v.upload_status as string]));
        if (cancelled) return;
        setStatuses(now);
        if (settled(watched, now)) {
          window.location.reload();
          return;
        }
      } catch {
        // A failed poll is tried again at the next tick.
      }
      if (cancelled) return;
      if (Date.now() - started > GIVE_UP_MS) setStopped(true);
      else timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [lang, asset_id, versions]);

  const current = versions
    .map((v) => ({ id: v.id, status: statuses.get(v.id) ?? v.status }))
    .filter((v) => MOVING.has(v.status));
  return (
    <div className="form-notice" role="status" data-testid="live-status">
      {current.map((v) => (
        <p key={v.id} data-status={v.status}>
          {t('asset_status.line', { status: t(`booth_maker.status.${v.status}`) })}
        </p>
      ))}
      {current.length === 0 && <p>{t('asset_status.done')}</p>}
      {stopped && (
        <p>
          <a href="">{t('booth_maker.reload')}</a>
        </p>
      )}
    </div>
  );
}
