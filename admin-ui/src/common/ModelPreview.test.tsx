import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, RecordContextProvider, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ja from '../../../locales/ja.json';
import { type Catalogue, createI18nProvider } from '../i18n';
import { modelPreview } from './ModelPreview';

function renderFor(record: Record<string, unknown>, when?: (r: Record<string, unknown>) => boolean) {
  const Preview = modelPreview('box_submissions', when);
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider({ ja: ja as Catalogue, en: en as Catalogue }, 'ja')}>
      <RecordContextProvider value={record}>
        <Preview />
      </RecordContextProvider>
    </AdminContext>,
  );
}

describe('<ModelPreview>', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('fetches nothing until staff ask, then says plainly when the model cannot be drawn', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderFor({ id: 7 });
    const open = await screen.findByTestId('console-model-open');
    expect(open.textContent).toBe(ja.admin.model_preview.open);
    expect(fetchSpy).not.toHaveBeenCalled();
    fireEvent.click(open);
    // happy-dom has no WebGL: the preview fails, and says so instead of drawing nothing.
    await waitFor(() => expect(screen.getByTestId('console-model-preview').getAttribute('data-state')).toBe('failed'));
    expect(screen.getByTestId('console-model-status').textContent).toBe(ja.admin.model_preview.failed);
    expect(screen.queryByTestId('console-model-open')).toBeNull();
  });

  it('shows nothing for a record without a model', async () => {
    renderFor({ id: 8, mime_type: 'video/mp4' }, (r) => r.mime_type === 'model/gltf-binary');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('console-model-preview')).toBeNull();
  });
});
