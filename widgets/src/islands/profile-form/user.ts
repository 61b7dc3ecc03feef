/**
 * The signed-in user as `GET/PUT /api/v1/user/me` return it (spec §3 "User", the API's
 * `UserView`), checked against its shape (spec §5 "Responses for profile … are checked against
 * their shapes"), and the calls themselves.
 */
import { ApiError, api, type CallOptions, type Operation, type Schemas } from '../../api';
import type { Lang } from '../../i18n';

/** The parts of the API's `UserView` that the form and the header use. */
export type User = Pick<Schemas['UserView'], 'id' | 'vmarket_id' | 'name' | 'name_ja' | 'name_en' | 'icon' | 'external_links'>;

/** What the form sends; `icon` only when a new file was chosen. */
export interface ProfileUpdate {
  name_ja: string;
  name_en: string;
  external_links: string[];
  icon?: File | null;
}

export const USER_ME_PATH = '/api/v1/user/me';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The user from an API body, or null when it does not have the user shape (id and both names);
 * a missing handle reads as empty and a missing icon as none (neither is needed to edit the
 * profile), malformed links are dropped.
 */
export function parseUser(body: unknown): User | null {
  if (!isRecord(body) || typeof body.id !== 'number') return null;
  if (typeof body.name_ja !== 'string' || typeof body.name_en !== 'string') return null;
  const icon = isRecord(body.icon) ? body.icon : {};
  const links = Array.isArray(body.external_links) ? body.external_links : [];
  return {
    id: body.id,
    vmarket_id: str(body.vmarket_id) ?? '',
    name: str(body.name) ?? body.name_ja,
    name_ja: body.name_ja,
    name_en: body.name_en,
    icon: { url: str(icon.url), small: str(icon.small), medium: str(icon.medium), large: str(icon.large) },
    external_links: links.flatMap((l): User['external_links'] =>
      isRecord(l) && typeof l.id === 'number' && typeof l.url === 'string' ? [{ id: l.id, url: l.url }] : [],
    ),
  };
}

/** The name to show in `lang`: name_ja for ja, name_en for en, else the other one. */
export function displayName(user: Pick<User, 'name' | 'name_ja' | 'name_en'>, lang: Lang): string {
  const [first, second] = lang === 'en' ? [user.name_en, user.name_ja] : [user.name_ja, user.name_en];
  return first.trim() || second.trim() || user.name;
}

/** The icon for small places (the header): small, else a bigger version, else the original. */
export function smallIconUrl(user: Pick<User, 'icon'>): string | null {
  return user.icon.small ?? user.icon.medium ?? user.icon.large ?? user.icon.url ?? null;
}

/** The icon for the form preview: medium, else large, small or the original. */
export function previewIconUrl(user: Pick<User, 'icon'>): string | null {
  return user.icon.medium ?? user.icon.large ?? user.icon.small ?? user.icon.url ?? null;
}

/** Options of the two calls, but the body. */
type MeOptions = Omit<CallOptions<Operation<typeof USER_ME_PATH, 'get'>>, 'body'>;

function userOrThrow(body: unknown, status: number): User {
  const user = parseUser(body);
  if (!user) throw new ApiError(status, 'invalid_response', 'the user response has an unexpected shape');
  return user;
}

/** `GET /api/v1/user/me`. */
export async function fetchMe(opts: MeOptions): Promise<User> {
  return userOrThrow(await api.get(USER_ME_PATH, opts), 200);
}

/** The multipart body of `PUT /api/v1/user/me`: external_links goes as a JSON string. */
export function profileFormData(update: ProfileUpdate): FormData {
  const data = new FormData();
  data.set('name_ja', update.name_ja);
  data.set('name_en', update.name_en);
  data.set('external_links', JSON.stringify(update.external_links));
  if (update.icon) data.set('icon', update.icon, update.icon.name);
  return data;
}

/** `PUT /api/v1/user/me` as multipart/form-data with the CSRF header. */
export async function updateMe(update: ProfileUpdate, opts: MeOptions): Promise<User> {
  return userOrThrow(await api.put(USER_ME_PATH, { ...opts, body: profileFormData(update) }), 200);
}

/** Puts the user's name (in `lang`) and small icon into every header slot of the page. */
export function updateHeaderUser(user: User, lang: Lang, doc: Document = document): void {
  const name = displayName(user, lang);
  doc.querySelectorAll<HTMLElement>('[data-testid="header-user-name"]').forEach((el) => {
    el.textContent = name;
  });
  const icon = smallIconUrl(user);
  if (icon) {
    doc.querySelectorAll<HTMLImageElement>('img[data-testid="header-user-icon"]').forEach((img) => {
      img.src = icon;
    });
  }
}
