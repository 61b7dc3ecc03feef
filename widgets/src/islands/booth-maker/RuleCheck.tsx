/**
 * The rule check: each scene rule with its actual value against its limit in human units (m,
 * counts, MB), ok or over in words as well as colour, the rules over named in a summary, and the
 * totals (with their test attributes). Shows the server's figures once it has checked this very
 * scene, and says so when they differ from the editor's own.
 */
import type { Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import type { Check } from './useBooth';
import { count, fixed, megabytes, vecAttr } from './format';
import { sumOf } from './totals';
import type { RuleKind, RuleView, Vec3 } from './types';

export interface RuleCheckProps {
  rules: RuleView[];
  check: Check;
  lang: Lang;
}

export function RuleCheck({ rules, check, lang }: RuleCheckProps) {
  const t = useT();
  const { totals, findings } = check;
  const over = new Set(findings.map((f) => f.rule_id));
  const label = (kind: RuleKind): string => t(`booth_maker.editor.rule.${kind}`);
  const box = (v: Vec3): string => t('booth_maker.editor.unit.box', { x: fixed(v[0], 2), y: fixed(v[1], 2), z: fixed(v[2], 2) });
  const value = (kind: RuleKind, v: number): string =>
    kind === 'max_texture_memory' || kind === 'max_bytes'
      ? t('booth_maker.editor.unit.mb', { n: megabytes(v) })
      : count(v, lang);
  const overNames = rules.filter((r) => over.has(r.rule_id)).map((r) => label(r.kind));
  return (
    <section
      className="booth-maker__panel"
      aria-labelledby="booth-rules-title"
      data-testid="rule-check"
      data-status={over.size > 0 ? 'over' : 'ok'}
      data-source={check.source}
    >
      <h2 id="booth-rules-title">{t('booth_maker.editor.rules_title')}</h2>
      <p className="booth-maker__note">
        {check.source === 'server' ? t('booth_maker.editor.checked_by_server') : t('booth_maker.editor.checked_live')}
      </p>
      {check.differs && <p className="booth-maker__warn">{t('booth_maker.editor.server_differs')}</p>}
      {rules.length === 0 && <p>{t('booth_maker.editor.no_rules')}</p>}
      <ul className="booth-maker__rules">
        {rules.map((rule) => {
          const isOver = over.has(rule.rule_id);
          const text =
            rule.kind === 'bounding_box'
              ? t('booth_maker.editor.actual_of_limit', { actual: box(totals.box), limit: box(rule.limit) })
              : t('booth_maker.editor.actual_of_limit', { actual: value(rule.kind, sumOf(totals, rule.kind)), limit: value(rule.kind, rule.limit) });
          return (
            <li
              key={rule.rule_id}
              className={`booth-maker__rule booth-maker__rule--${isOver ? 'over' : 'ok'}`}
              data-testid="rule-row"
              data-rule={rule.rule_id}
              data-over={isOver ? 'true' : 'false'}
            >
              <span className="booth-maker__rule-name">
                {label(rule.kind)}
                {rule.severity === 'warning' && <small> {t('booth_maker.editor.severity_warning')}</small>}
              </span>
              <span>{text}</span>
              <strong>{isOver ? t('booth_maker.editor.rule_over') : t('booth_maker.editor.rule_ok')}</strong>
            </li>
          );
        })}
      </ul>
      <p className={overNames.length ? 'booth-maker__warn' : 'booth-maker__note'}>
        {overNames.length
          ? t('booth_maker.editor.over_summary', { rules: overNames.join(t('booth_maker.editor.list_separator')) })
          : t('booth_maker.editor.all_ok')}
      </p>
      <dl
        className="booth-maker__totals"
        data-testid="totals"
        data-items={totals.items}
        data-triangles={totals.triangles}
        data-materials={totals.materials}
        data-texture-memory={totals.texture_memory}
        data-bytes={totals.bytes}
        data-box={vecAttr(totals.box)}
      >
        <dt>{t('booth_maker.editor.total.items')}</dt>
        <dd>{count(totals.items, lang)}</dd>
        <dt>{t('booth_maker.editor.total.triangles')}</dt>
        <dd>{count(totals.triangles, lang)}</dd>
        <dt>{t('booth_maker.editor.total.materials')}</dt>
        <dd>{count(totals.materials, lang)}</dd>
        <dt>{t('booth_maker.editor.total.texture_memory')}</dt>
        <dd>{t('booth_maker.editor.unit.mb', { n: megabytes(totals.texture_memory) })}</dd>
        <dt>{t('booth_maker.editor.total.bytes')}</dt>
        <dd>{t('booth_maker.editor.unit.mb', { n: megabytes(totals.bytes) })}</dd>
        <dt>{t('booth_maker.editor.total.box')}</dt>
        <dd>{box(totals.box)}</dd>
      </dl>
    </section>
  );
}
