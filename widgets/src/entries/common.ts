/**
 * Entry loaded on every page: chunk-load error recovery, new-build notice, island mounting.
 * Page-specific entries can be added next to it (every `src/entries/*.ts` is an entry).
 */
import { BUILD_POLL_MS, startBuildCheck } from '../build-check';
import { documentLang, loadTranslator } from '../i18n';
import { mountIslands } from '../islands';
import { readMeta, readMetaInt } from '../meta';
import { installChunkReload } from '../reload-guard';
import { showNewBuildToast } from '../build-notice';

function start(): void {
  const chunkReload = installChunkReload();
  const lang = documentLang();

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
      if (!chunkReload.handle(err)) console.error('[vmarket] island failed', err);
    },
  });
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start, { once: true });
} else {
  start();
}
