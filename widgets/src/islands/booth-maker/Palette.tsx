/** The user's furniture that may be placed: name, picture, sub-type, size, and a "place" button each. */
import { useT } from '../../i18n-react';
import { fixed } from './format';
import type { PaletteItem } from './types';

export interface PaletteProps {
  palette: PaletteItem[];
  /** Why nothing more may be placed (the item limit), or null. */
  full: string | null;
  onPlace(entry: PaletteItem): void;
}

export function Palette({ palette, full, onPlace }: PaletteProps) {
  const t = useT();
  return (
    <section className="booth-maker__panel" aria-labelledby="booth-palette-title">
      <h2 id="booth-palette-title">{t('booth_maker.editor.palette_title')}</h2>
      {palette.length === 0 && <p>{t('booth_maker.editor.palette_empty')}</p>}
      {full && <p className="booth-maker__note">{full}</p>}
      <ul className="booth-maker__palette">
        {palette.map((entry) => {
          const size = [0, 1, 2].map((a) => fixed(entry.stats.box_max[a]! - entry.stats.box_min[a]!, 2));
          return (
            <li key={entry.asset_version_id} className="booth-maker__entry">
              {entry.thumbnail ? (
                <img src={entry.thumbnail} alt="" width={48} height={48} loading="lazy" />
              ) : (
                <span className="booth-maker__thumb" aria-hidden="true" />
              )}
              <span className="booth-maker__entry-text">
                <strong>{entry.name}</strong>
                <small>
                  {t('booth_maker.editor.entry_meta', {
                    kind: t(`booth_maker.editor.sub_type.${entry.sub_type}`),
                    size: t('booth_maker.editor.unit.box', { x: size[0]!, y: size[1]!, z: size[2]! }),
                  })}
                </small>
              </span>
              <button
                type="button"
                className="button"
                data-testid="palette-place"
                data-version-id={entry.asset_version_id}
                disabled={full !== null}
                aria-label={t('booth_maker.editor.place_named', { name: entry.name })}
                onClick={() => onPlace(entry)}
              >
                {t('booth_maker.editor.place')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
