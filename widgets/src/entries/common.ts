/**
 * Entry loaded on every page: error reporting when the page has a DSN (`@vmarket/telemetry`),
 * chunk-load error recovery, new-build notice, island mounting (an island that fails is
 * reported), the phone's mypage menu scrolled to the current section. Page-specific entries can be added next to it (every `src/entries/*.ts` is an entry).
 */
import { startErrorReporting } from '@vmarket/telemetry';
import { BUILD_POLL_MS, startBuildCheck } from '../build-check';
import { documentLang, loadTranslator } from '../i18n';
import { mountIslands } from '../islands';
import { readMeta, readMetaInt } from '../meta';
import { installChunkReload } from '../reload-guard';
import { showNewBuildToast } from '../build-notice';
import { showCurrent } from '../menu-scroll';

function start(): void {
  const reporting = startErrorReporting();
  const chunkReload = installChunkReload();
  const lang = documentLang();
  showCurrent(document.querySelector<HTMLElement>('.mypage-nav'));

  const buildId = readMeta('vmarket-build-id');
  if (buildId !== null) {
    startBuildCheck({
      currentId: buildId,
      intervalMs: readMetaInt('vmarket-build-poll-ms', BUILD_POLL_MS),
      onNewBuild: (id) => {
        void loadTranslator(lang).then((t) => showNewBuildToast(id, t));
      },
    });
  }

  void mountIslands(document, () => loadTranslator(lang), {
    onError: (err) => {
      if (chunkReload.handle(err)) return;
      console.error('[vmarket] island failed', err);
      void reporting.then((report) => report(err));
    },
  });
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start, { once: true });
} else {
  start();
}
