/**
 * Island `profile-form` (/mypage/profile): loads the signed-in user from `GET /api/v1/user/me`,
 * edits the Japanese and English display names, up to 5 external links and the icon, checks
 * the spec §5 limits before sending, sends `PUT /api/v1/user/me` as multipart with the CSRF
 * token, and on success shows a toast and puts the new name and icon into the page header.
 *
 * Errors: the server's 422 details appear beside their fields, a 413 beside the icon; a 401
 * from either call flags the page's auth error (spec §4), which clears the loaded user and
 * shows a sign-in link instead of the form.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ApiError } from '../../api';
import { hasAuthError, onAuthError, signInHref } from '../../auth';
import { documentLang, type Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import { showToast } from '../../toast';
import { fetchMe, previewIconUrl, updateHeaderUser, updateMe, type User } from './user';
import {
  ICON_MAX_MB,
  ICON_TYPES,
  LINKS_MAX,
  NAME_EN_MAX,
  NAME_JA_MAX,
  checkIcon,
  cleanLinks,
  hasErrors,
  validateProfile,
  type FieldError,
  type ProfileErrors,
} from './validate';
import './profile-form.css';

export interface ProfileFormProps {
  lang?: Lang;
}

type Field = 'name_ja' | 'name_en' | 'external_links' | 'icon';
const FIELDS: readonly Field[] = ['name_ja', 'name_en', 'external_links', 'icon'];

/** Translated messages on screen. */
interface Shown {
  fields: Partial<Record<Field, string[]>>;
  /** Per link row (by row key). */
  links: Record<number, string>;
  form: string | null;
}

const NO_ERRORS: Shown = { fields: {}, links: {}, form: null };

interface LinkRow {
  key: number;
  value: string;
}

type LoadState = 'loading' | 'ready' | 'failed';

function fieldOf(attribute: string): Field | null {
  if ((FIELDS as readonly string[]).includes(attribute)) return attribute as Field;
  if (attribute.startsWith('external_links')) return 'external_links';
  return null;
}

export default function ProfileForm({ lang: langProp }: ProfileFormProps) {
  const t = useT();
  const lang: Lang = langProp === 'en' || langProp === 'ja' ? langProp : documentLang();
  const id = useId();

  const [loadState, setLoadState] = useState<LoadState>('loading');
  const [authError, setAuthError] = useState(hasAuthError);
  const [user, setUser] = useState<User | null>(null);
  const [nameJa, setNameJa] = useState('');
  const [nameEn, setNameEn] = useState('');
  const [links, setLinks] = useState<LinkRow[]>([]);
  const [icon, setIcon] = useState<File | null>(null);
  const [iconInputKey, setIconInputKey] = useState(0);
  const [shown, setShown] = useState<Shown>(NO_ERRORS);
  const [saving, setSaving] = useState(false);
  const nextKey = useRef(0);
  const formRef = useRef<HTMLFormElement>(null);

  const tr = useCallback((e: FieldError) => t(e.key, e.params), [t]);

  const fill = useCallback((u: User) => {
    setUser(u);
    setNameJa(u.name_ja);
    setNameEn(u.name_en);
    setLinks(u.external_links.map((l) => ({ key: nextKey.current++, value: l.url })));
    setIcon(null);
    setIconInputKey((k) => k + 1);
  }, []);

  // Spec §4: any 401 flags the auth error; the loaded user is cleared with it.
  useEffect(() => {
    const clear = (): void => {
      setAuthError(true);
      setUser(null);
    };
    if (hasAuthError()) clear();
    return onAuthError(clear);
  }, []);

  const load = useCallback(
    (signal?: AbortSignal) => {
      setLoadState('loading');
      fetchMe({ lang, signal })
        .then((u) => {
          if (signal?.aborted) return;
          fill(u);
          setLoadState('ready');
        })
        .catch((err: unknown) => {
          if (signal?.aborted) return;
          // Spec §4: a failed profile fetch clears the user.
          setUser(null);
          setLoadState('failed');
          if (!(err instanceof ApiError && err.status === 401)) console.warn('[vmarket] profile fetch failed', err);
        });
    },
    [lang, fill],
  );

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  // Preview of a newly chosen icon (an object URL, released when the file changes).
  const newIconUrl = useMemo(
    () => (icon && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(icon) : null),
    [icon],
  );
  useEffect(
    () => () => {
      if (newIconUrl) URL.revokeObjectURL(newIconUrl);
    },
    [newIconUrl],
  );

  const clearField = (field: Field): void => {
    setShown((s) => {
      if (!s.fields[field] && s.form === null) return s;
      const fields = { ...s.fields };
      delete fields[field];
      return { ...s, fields, form: null };
    });
  };

  const clearLink = (key: number): void => {
    setShown((s) => {
      if (!(key in s.links) && !s.fields.external_links) return s;
      const rest = { ...s.links };
      delete rest[key];
      const fields = { ...s.fields };
      delete fields.external_links;
      return { ...s, links: rest, fields, form: null };
    });
  };

  const showClientErrors = (errors: ProfileErrors): void => {
    const fields: Shown['fields'] = {};
    if (errors.name_ja) fields.name_ja = [tr(errors.name_ja)];
    if (errors.name_en) fields.name_en = [tr(errors.name_en)];
    if (errors.external_links) fields.external_links = [tr(errors.external_links)];
    if (errors.icon) fields.icon = [tr(errors.icon)];
    const rowErrors: Record<number, string> = {};
    for (const [index, error] of Object.entries(errors.links ?? {})) {
      const row = links[Number(index)];
      if (row) rowErrors[row.key] = tr(error);
    }
    setShown({ fields, links: rowErrors, form: t('profile_form.has_errors') });
  };

  const showServerError = (err: unknown): void => {
    if (!(err instanceof ApiError)) {
      console.error('[vmarket] profile update failed', err);
      setShown({ ...NO_ERRORS, form: t('profile_form.save_failed') });
      return;
    }
    if (err.status === 401) return; // the auth-error prompt replaces the form
    if (err.status === 422) {
      const fields: Shown['fields'] = {};
      const other: string[] = [];
      for (const detail of err.details) {
        const field = fieldOf(detail.attribute);
        if (field) (fields[field] ??= []).push(detail.message);
        else other.push(detail.message);
      }
      const form = [t('profile_form.has_errors'), ...other].join(' ');
      setShown({ fields, links: {}, form });
      return;
    }
    if (err.status === 413) {
      setShown({
        fields: { icon: [t('profile_form.errors.icon_too_large', { max: ICON_MAX_MB })] },
        links: {},
        form: t('profile_form.save_failed'),
      });
      return;
    }
    const form =
      err.code === 'csrf_failed'
        ? t('profile_form.csrf_failed')
        : err.status === 0
          ? t('profile_form.network_error')
          : t('profile_form.save_failed');
    setShown({ ...NO_ERRORS, form });
  };

  const focusFirstError = (): void => {
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('input[aria-invalid="true"]')?.focus();
    });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (saving || !user) return;
    const rows = links.map((l) => l.value);
    const errors = validateProfile({ name_ja: nameJa, name_en: nameEn, links: rows, icon });
    if (hasErrors(errors)) {
      showClientErrors(errors);
      focusFirstError();
      return;
    }
    setShown(NO_ERRORS);
    setSaving(true);
    try {
      const updated = await updateMe(
        { name_ja: nameJa.trim(), name_en: nameEn.trim(), external_links: cleanLinks(rows), icon },
        { lang },
      );
      fill(updated);
      updateHeaderUser(updated, lang);
      showToast(t('profile_form.saved'));
    } catch (err) {
      showServerError(err);
      focusFirstError();
    } finally {
      setSaving(false);
    }
  };

  const onIconChange = (event: ChangeEvent<HTMLInputElement>): void => {
    const file = event.target.files?.[0] ?? null;
    const error = checkIcon(file);
    setIcon(file);
    if (error) setShown((s) => ({ ...s, fields: { ...s.fields, icon: [tr(error)] } }));
    else clearField('icon');
  };

  if (authError) {
    const href = signInHref();
    return (
      <div className="profile-form profile-form--auth-error" lang={lang}>
        <p className="profile-form__alert" role="alert" data-testid="profile-auth-error">
          {t('profile_form.auth_error')}{' '}
          <a href={href ?? window.location.href} data-testid="profile-sign-in">
            {href ? t('profile_form.sign_in') : t('profile_form.reload')}
          </a>
        </p>
      </div>
    );
  }

  if (loadState === 'loading' && !user) {
    return (
      <div className="profile-form" lang={lang} aria-busy="true">
        <p className="profile-form__status" data-testid="profile-loading">
          {t('profile_form.loading')}
        </p>
      </div>
    );
  }

  if (!user) {
    return (
      <div className="profile-form" lang={lang}>
        <p className="profile-form__alert" role="alert" data-testid="profile-load-error">
          {t('profile_form.load_failed')}{' '}
          <button type="button" className="profile-form__link-button" onClick={() => load()}>
            {t('profile_form.retry')}
          </button>
        </p>
      </div>
    );
  }

  const errorId = (field: string): string => `${id}-${field}-error`;
  const fieldErrors = (field: Field) =>
    shown.fields[field]?.length ? (
      <ul className="profile-form__errors" id={errorId(field)} data-testid={`profile-error-${field}`}>
        {shown.fields[field]?.map((message, i) => <li key={i}>{message}</li>)}
      </ul>
    ) : null;
  const invalid = (field: Field): { 'aria-invalid'?: true; 'aria-describedby'?: string } =>
    shown.fields[field]?.length ? { 'aria-invalid': true, 'aria-describedby': errorId(field) } : {};

  const preview = (shown.fields.icon ? null : newIconUrl) ?? previewIconUrl(user);

  return (
    <form
      ref={formRef}
      className="profile-form"
      data-testid="profile-form"
      lang={lang}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      aria-busy={saving || undefined}
    >
      <div className="profile-form__field">
        <label htmlFor={`${id}-name_ja`}>{t('profile_form.name_ja')}</label>
        <input
          id={`${id}-name_ja`}
          name="name_ja"
          type="text"
          autoComplete="nickname"
          data-testid="profile-name-ja"
          value={nameJa}
          onChange={(e) => {
            setNameJa(e.target.value);
            clearField('name_ja');
          }}
          {...invalid('name_ja')}
        />
        <p className="profile-form__hint">{t('profile_form.name_hint', { max: NAME_JA_MAX })}</p>
        {fieldErrors('name_ja')}
      </div>

      <div className="profile-form__field">
        <label htmlFor={`${id}-name_en`}>{t('profile_form.name_en')}</label>
        <input
          id={`${id}-name_en`}
          name="name_en"
          type="text"
          lang="en"
          data-testid="profile-name-en"
          value={nameEn}
          onChange={(e) => {
            setNameEn(e.target.value);
            clearField('name_en');
          }}
          {...invalid('name_en')}
        />
        <p className="profile-form__hint">{t('profile_form.name_hint', { max: NAME_EN_MAX })}</p>
        {fieldErrors('name_en')}
      </div>

      <fieldset
        className="profile-form__field profile-form__links"
        aria-describedby={shown.fields.external_links?.length ? errorId('external_links') : undefined}
      >
        <legend>{t('profile_form.external_links')}</legend>
        <p className="profile-form__hint">{t('profile_form.external_links_hint', { max: LINKS_MAX })}</p>
        {links.length === 0 ? <p className="profile-form__empty">{t('profile_form.no_links')}</p> : null}
        <ul className="profile-form__link-list">
          {links.map((row, index) => {
            const rowError = shown.links[row.key];
            const rowId = `${id}-link-${row.key}`;
            return (
              <li key={row.key} className="profile-form__link-row" data-testid="profile-link-row">
                <label className="profile-form__visually-hidden" htmlFor={rowId}>
                  {t('profile_form.link_label', { n: index + 1 })}
                </label>
                <input
                  id={rowId}
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  data-testid="profile-link-input"
                  value={row.value}
                  onChange={(e) => {
                    const value = e.target.value;
                    setLinks((ls) => ls.map((l) => (l.key === row.key ? { ...l, value } : l)));
                    clearLink(row.key);
                  }}
                  aria-invalid={rowError ? true : undefined}
                  aria-describedby={rowError ? `${rowId}-error` : undefined}
                />
                <button
                  type="button"
                  className="profile-form__secondary"
                  data-testid="profile-link-remove"
                  aria-label={t('profile_form.remove_link_label', { n: index + 1 })}
                  onClick={() => {
                    setLinks((ls) => ls.filter((l) => l.key !== row.key));
                    clearLink(row.key);
                  }}
                >
                  {t('profile_form.remove_link')}
                </button>
                {rowError ? (
                  <p className="profile-form__errors" id={`${rowId}-error`} data-testid="profile-link-error">
                    {rowError}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          className="profile-form__secondary"
          data-testid="profile-link-add"
          disabled={links.length >= LINKS_MAX}
          onClick={() => setLinks((ls) => [...ls, { key: nextKey.current++, value: '' }])}
        >
          {t('profile_form.add_link')}
        </button>
        {fieldErrors('external_links')}
      </fieldset>

      <div className="profile-form__field profile-form__icon">
        <label htmlFor={`${id}-icon`}>{t('profile_form.icon')}</label>
        <div className="profile-form__icon-row">
          {preview ? (
            <img
              className="profile-form__icon-preview"
              src={preview}
              alt={t('profile_form.icon_preview')}
              width={96}
              height={96}
              data-testid="profile-icon-preview"
            />
          ) : (
            <span className="profile-form__icon-preview profile-form__icon-preview--empty" data-testid="profile-icon-empty">
              {t('profile_form.no_icon')}
            </span>
          )}
          <input
            key={iconInputKey}
            id={`${id}-icon`}
            name="icon"
            type="file"
            accept={ICON_TYPES.join(',')}
            data-testid="profile-icon-input"
            onChange={onIconChange}
            {...invalid('icon')}
          />
        </div>
        <p className="profile-form__hint">{t('profile_form.icon_hint', { max: ICON_MAX_MB })}</p>
        {fieldErrors('icon')}
      </div>

      {shown.form ? (
        <p className="profile-form__alert" role="alert" data-testid="profile-form-error">
          {shown.form}
        </p>
      ) : null}

      <div className="profile-form__actions">
        <button type="submit" className="profile-form__submit" data-testid="profile-submit" disabled={saving}>
          {saving ? t('profile_form.saving') : t('profile_form.submit')}
        </button>
      </div>
    </form>
  );
}
