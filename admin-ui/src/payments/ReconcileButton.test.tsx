import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, type AuthProvider, RecordContextProvider, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ja from '../../../locales/ja.json';
import { type Catalogue, createI18nProvider } from '../i18n';
import { ReconcileButton } from './ReconcileButton';
import { roleAllowing } from '../common/testing';

/** What `canAccess` answers from the session: admins reconcile payments, others only read. */
function role(reconciles: boolean): AuthProvider {
  return roleAllowing((action) => action !== 'reconcile' || reconciles);
}

function renderWith(reconciles: boolean, record: Record<string, unknown>, calls: unknown[][]) {
  const dataProvider = testDataProvider({
    reconcile: async (resource: string, id: number) => {
      calls.push([resource, id]);
      return { id, state: 'captured', outcome: 'settled' };
    },
  } as never);
  const i18nProvider = createI18nProvider({ ja: ja as Catalogue, en: en as Catalogue }, 'en');
  render(
    <AdminContext authProvider={role(reconciles)} dataProvider={dataProvider} i18nProvider={i18nProvider}>
      <RecordContextProvider value={record}>
        <ReconcileButton />
      </RecordContextProvider>
    </AdminContext>,
  );
}

describe('the reconcile button', () => {
  afterEach(() => cleanup());

  it('asks the server to reconcile a pending payment, for a role that may', async () => {
    const calls: unknown[][] = [];
    renderWith(true, { id: 12, state: 'pending' }, calls);
    const button = await screen.findByTestId('payment-reconcile');
    expect(button.textContent).toBe(en.admin.payments.reconcile);
    fireEvent.click(button);
    await waitFor(() => expect(calls).toEqual([['payments', 12]]));
  });

  it('is absent for readers and for payments that are not pending', async () => {
    renderWith(false, { id: 12, state: 'pending' }, []);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('payment-reconcile')).toBeNull();
    cleanup();
    renderWith(true, { id: 12, state: 'captured' }, []);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('payment-reconcile')).toBeNull();
  });
});
