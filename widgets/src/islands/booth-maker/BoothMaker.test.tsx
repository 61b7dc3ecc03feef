import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BoothMaker from './BoothMaker';
import type { EditorView } from './types';

vi.mock('./Viewport', () => ({ default: () => null }));

const VIEW: EditorView = {
  scene: { id: 7, name: 'My booth', introduction: '', revision: 1, published: false, updated_at: '2026-12-06T09:00:00Z' },
  home: { id: 3, platform_code: 'cube', name: 'Cube', scene_url: '/media/home.glb', thumbnail_url: null, size: [4, 3, 2] },
  draft: { revision: 5, scene: { version: 1, home: 3, items: [] }, updated_at: '2026-12-06T09:00:00Z' },
  palette: [
    {
      asset_version_id: 11,
      asset_id: 1,
      name: 'Table',
      sub_type: 'floor',
      url: '/media/table.glb',
      thumbnail: null,
      stats: { triangles: 800, materials: 2, texture_memory: 1_048_576, bytes: 2_097_152, box_min: [-0.6, 0, -0.4], box_max: [0.6, 0.75, 0.4] },
    },
  ],
  avatar: null,
  rules: [{ rule_id: 'booth_triangles', severity: 'error', kind: 'max_triangles', limit: 1000 }],
  limits: { max_items: 200, min_scale: 0.1, max_scale: 10 },
  slots: [],
};

afterEach(cleanup);

describe('BoothMaker', () => {
  it('places, moves by key, checks the rules live, undoes, and autosaves the draft', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (init?.method === 'PUT') {
        return new Response(JSON.stringify({ revision: 6, updated_at: '2026-12-06T09:01:00Z', totals: { items: 2, triangles: 1600, materials: 2, texture_memory: 1_048_576, bytes: 2_097_152, box: [1.2, 0.75, 0.8] }, findings: [] }));
      }
      expect(String(input)).toBe('/api/v1/booth_maker/scenes/7?lang=en');
      return new Response(JSON.stringify(VIEW));
    });
    render(<BoothMaker lang="en" scene_id={7} list_href="/mypage/booth-maker" />);
    await waitFor(() => expect(screen.getByTestId('booth-editor').dataset.state).toBe('ready'));

    fireEvent.click(screen.getByTestId('palette-place'));
    const placed = screen.getAllByTestId('placed-item');
    expect(placed).toHaveLength(1);
    expect(placed[0]!.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('selected-position').dataset.x).toBe('0.000');

    fireEvent.keyDown(screen.getByTestId('editor-keys'), { key: 'ArrowRight' });
    expect(screen.getByTestId('selected-position').dataset.x).toBe('0.100');
    expect(screen.getByTestId('selected-position').textContent).toBe('x 0.10 y 0.00 z 0.00');

    fireEvent.keyDown(screen.getByTestId('editor-keys'), { key: 'd', ctrlKey: true });
    const totals = screen.getByTestId('totals');
    expect(totals.dataset.items).toBe('2');
    expect(totals.dataset.triangles).toBe('1600');
    expect(totals.dataset.materials).toBe('2');
    expect(totals.dataset.box).toBe('1.400,0.750,0.800');
    expect(screen.getByTestId('rule-check').dataset.status).toBe('over');
    expect(screen.getByTestId('rule-row').dataset.over).toBe('true');

    fireEvent.click(screen.getByTestId('undo'));
    expect(screen.getByTestId('totals').dataset.items).toBe('1');
    expect(screen.getByTestId('rule-check').dataset.status).toBe('ok');
    fireEvent.click(screen.getByTestId('redo'));
    expect(screen.getByTestId('totals').dataset.items).toBe('2');

    expect(screen.getByTestId('autosave').dataset.state).toBe('pending');
    await waitFor(() => expect(screen.getByTestId('autosave').dataset.state).toBe('saved'));
    expect(screen.getByTestId('autosave').dataset.revision).toBe('6');
    const put = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(put).toHaveLength(1);
    const body = JSON.parse(String(put[0]![1]!.body)) as { revision: number; scene: { items: unknown[] } };
    expect(body.revision).toBe(5);
    expect(body.scene.items).toHaveLength(2);
    expect(screen.getByTestId('submit')).toHaveProperty('disabled', true);
  });

  it('says so when the booth is not the user’s', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify({ code: 'not_found', message: 'Not found' }), { status: 404 }));
    render(<BoothMaker lang="ja" scene_id={8} list_href="/mypage/booth-maker" />);
    await waitFor(() => expect(screen.getByTestId('booth-editor').dataset.state).toBe('failed'));
    expect(screen.getByText('booth_maker.editor.not_found')).toBeTruthy();
  });
});
