/** The placed items, each a button that selects it (the selected one pressed); over-limit ones say so. */
import { useT } from '../../i18n-react';
import type { SceneItem } from './types';

export interface PlacedListProps {
  items: SceneItem[];
  names: ReadonlyMap<number, string>;
  selected: number | null;
  marked: ReadonlySet<number>;
  onSelect(index: number): void;
}

export function PlacedList({ items, names, selected, marked, onSelect }: PlacedListProps) {
  const t = useT();
  return (
    <section className="booth-maker__panel" aria-labelledby="booth-placed-title">
      <h2 id="booth-placed-title">{t('booth_maker.editor.placed_title', { n: items.length })}</h2>
      {items.length === 0 && <p>{t('booth_maker.editor.placed_empty')}</p>}
      <ul className="booth-maker__placed">
        {items.map((item, index) => (
          <li key={index}>
            <button
              type="button"
              className={`booth-maker__placed-item${marked.has(index) ? ' booth-maker__placed-item--over' : ''}`}
              data-testid="placed-item"
              data-index={index}
              data-version-id={item.asset_version_id}
              aria-pressed={selected === index}
              onClick={() => onSelect(index)}
            >
              <span>
                {t('booth_maker.editor.placed_name', {
                  n: index + 1,
                  name: names.get(item.asset_version_id) ?? t('booth_maker.editor.unknown_item', { id: item.asset_version_id }),
                })}
              </span>
              <small>{t(`booth_maker.editor.sub_type.${item.sub_type}`)}</small>
              {marked.has(index) && <strong>{t('booth_maker.editor.item_over')}</strong>}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
