/**
 * Submitting the booth for an event slot: choose an open slot (closed ones are listed but cannot
 * be chosen; with none open the button is off and says why), send the draft as it is saved, and
 * show the submission's number, or why the server refused it (the rules over, named by it).
 */
import { useState } from 'react';
import { ApiError } from '../../api';
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import { isConflict, type DraftSaver } from './autosave';
import type { BoothClient } from './client';
import { dateTime } from './format';
import type { SlotChoice, Submitted } from './types';

export interface SubmitPanelProps {
  lang: Lang;
  slots: SlotChoice[];
  saver: DraftSaver;
  client: BoothClient;
  /** Whether the editor's own check finds the booth over a rule. */
  over: boolean;
}

type Result =
  | { state: 'sending' }
  | { state: 'done'; submitted: Submitted }
  | { state: 'error'; code: string; message: string; details: string[] }
  | null;

const KNOWN = new Set(['scene_over_limit', 'submission_closed', 'submission_not_open', 'draft_conflict', 'not_found', 'network_error']);

export function SubmitPanel({ lang, slots, saver, client, over }: SubmitPanelProps) {
  const t = useT();
  const open = slots.filter((s) => s.open);
  const [slotId, setSlotId] = useState<number | null>(open[0]?.id ?? null);
  const [result, setResult] = useState<Result>(null);

  const submit = async (): Promise<void> => {
    if (slotId === null) return;
    setResult({ state: 'sending' });
    if (!(await saver.flush())) {
      setResult({ state: 'error', code: 'draft_not_saved', message: t('booth_maker.editor.save_needs_draft'), details: [] });
      return;
    }
    try {
      const submitted = await client.submit(slotId, saver.getSnapshot().revision);
      setResult({ state: 'done', submitted });
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(0, 'network_error', String(err));
      if (isConflict(e)) saver.markConflict(e);
      const code = e.status === 404 ? 'not_found' : e.code;
      setResult({
        state: 'error',
        code,
        message: KNOWN.has(code) ? t(`booth_maker.editor.submit_error.${code}`) : e.message,
        details: e.details.map((d) => d.message),
      });
    }
  };

  return (
    <section className="booth-maker__panel" aria-labelledby="booth-submit-title">
      <h2 id="booth-submit-title">{t('booth_maker.editor.submit_title')}</h2>
      {open.length === 0 ? (
        <p className="booth-maker__note" id="booth-submit-reason">
          {t(slots.length === 0 ? 'booth_maker.editor.no_slots' : 'booth_maker.editor.no_open_slot')}
        </p>
      ) : (
        over && <p className="booth-maker__warn">{t('booth_maker.editor.submit_over_warning')}</p>
      )}
      <label className="booth-maker__field">
        <span>{t('booth_maker.editor.submit_slot')}</span>
        <select
          data-testid="submit-slot"
          value={slotId ?? ''}
          disabled={open.length === 0}
          onChange={(e) => setSlotId(e.target.value === '' ? null : Number(e.target.value))}
        >
          {open.length === 0 && <option value="">{t('booth_maker.editor.no_open_slot_option')}</option>}
          {slots.map((slot) => (
            <option key={slot.id} value={slot.id} disabled={!slot.open}>
              {slot.open
                ? slot.submission_end_at
                  ? t('booth_maker.editor.slot_until', { label: slot.label, time: dateTime(slot.submission_end_at, lang) })
                  : slot.label
                : t('booth_maker.editor.slot_closed', { label: slot.label })}
            </option>
          ))}
        </select>
      </label>
      <p>
        <button
          type="button"
          className="button button--primary"
          data-testid="submit"
          disabled={slotId === null || result?.state === 'sending'}
          aria-describedby={open.length === 0 ? 'booth-submit-reason' : undefined}
          onClick={() => void submit()}
        >
          {result?.state === 'sending' ? t('booth_maker.editor.submitting') : t('booth_maker.editor.submit')}
        </button>
      </p>
      {result && result.state !== 'sending' && (
        <div
          role="status"
          className={result.state === 'done' ? 'booth-maker__done' : 'booth-maker__warn'}
          data-testid="submit-result"
          data-state={result.state}
          data-code={result.state === 'error' ? result.code : undefined}
        >
          {result.state === 'done' ? (
            <p>{t('booth_maker.editor.submitted', { id: result.submitted.id, version: result.submitted.version })}</p>
          ) : (
            <>
              <p>{result.message}</p>
              {result.details.length > 0 && (
                <ul>
                  {result.details.map((d, i) => (
                    <li key={i}>{d}</li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}
