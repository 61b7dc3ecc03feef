/**
 * The "new version available" toast with a reload action (spec §4 new-build detection).
 */
import type { Translate } from './i18n';
import { showToast } from './toast';

/** Shows the notice for build `id` (at most one on screen per id). */
export function showNewBuildToast(
  id: string,
  t: Translate,
  reload: () => void = () => window.location.reload(),
  doc: Document = document,
): HTMLElement | null {
  return showToast(t('build.new_version'), {
    id: `build-${id}`,
    action: { label: t('build.reload'), onClick: reload },
    doc,
  });
}
