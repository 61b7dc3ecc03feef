import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, type AuthProvider, RecordContextProvider, testDataProvider } from 'react-admin';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDialog } from '../applications/StatusDialog';
import { RunActions } from './RunActions';
import { roleAllowing } from '../common/testing';

/** A role that may (or may not) edit everything, as `canAccess` would answer from the session. */
function role(edits: boolean): AuthProvider {
  return roleAllowing((action) => edits || action === 'list' || action === 'show');
}

function renderWith(edits: boolean, record: Record<string, unknown>, child: ReactElement) {
  render(
    <AdminContext authProvider={role(edits)} dataProvider={testDataProvider()}>
      <RecordContextProvider value={record}>{child}</RecordContextProvider>
    </AdminContext>,
  );
}

describe('lottery and status buttons follow the role', () => {
  afterEach(() => cleanup());

  it('shows Preview and Publish to a role that may edit draws', async () => {
    renderWith(true, { id: 3, state: 'preview' }, <RunActions />);
    expect(await screen.findByTestId('lottery-preview')).toBeTruthy();
    expect((await screen.findByTestId('lottery-publish')).hasAttribute('disabled')).toBe(false);
  });

  it('hides them from a reader and once published', async () => {
    renderWith(false, { id: 3, state: 'preview' }, <RunActions />);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('lottery-preview')).toBeNull();
    cleanup();
    renderWith(true, { id: 3, state: 'published' }, <RunActions />);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('lottery-publish')).toBeNull();
  });

  it('offers the status correction only to a role that may edit applications', async () => {
    const record = { id: 9, lottery_status: 'applied', corrections: ['first_win'] };
    renderWith(true, record, <StatusDialog />);
    expect(await screen.findByTestId('correct-status')).toBeTruthy();
    cleanup();
    renderWith(false, record, <StatusDialog />);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('correct-status')).toBeNull();
  });
});
