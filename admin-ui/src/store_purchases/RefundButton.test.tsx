import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, type AuthProvider, RecordContextProvider, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ja from '../../../locales/ja.json';
import { type Catalogue, createI18nProvider } from '../i18n';
import { RefundButton } from './RefundButton';
import { roleAllowing } from '../common/testing';

/** What `canAccess` answers from the session: admins refund, others only read. */
function role(refunds: boolean): AuthProvider {
  return roleAllowing((action) => action !== 'refund' || refunds);
}

function renderWith(refunds: boolean, record: Record<string, unknown>, calls: unknown[][]) {
  const dataProvider = testDataProvider({
    refund: async (resource: string, id: number, reason: string) => {
      calls.push([resource, id, reason]);
      return { id, status: 'refunded', outcome: 'refunded' };
    },
  } as never);
  const i18nProvider = createI18nProvider({ ja: ja as Catalogue, en: en as Catalogue }, 'en');
  render(
    <AdminContext authProvider={role(refunds)} dataProvider={dataProvider} i18nProvider={i18nProvider}>
      <RecordContextProvider value={record}>
        <RefundButton />
      </RecordContextProvider>
    </AdminContext>,
  );
}

describe('the refund button', () => {
  afterEach(() => cleanup());

  it('refunds a paid purchase with the reason staff give, and not without one', async () => {
    const calls: unknown[][] = [];
    renderWith(true, { id: 7, status: 'paid' }, calls);
    const button = await screen.findByTestId('purchase-refund');
    expect(button.textContent).toBe(en.admin.store_purchases.refund);
    fireEvent.click(button);
    const confirm = await screen.findByTestId('refund-confirm');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('refund-reason'), { target: { value: '  buyer asked  ' } });
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(calls).toEqual([['store_purchases', 7, 'buyer asked']]));
  });

  it('is absent for readers and for purchases refunded already', async () => {
    renderWith(false, { id: 7, status: 'paid' }, []);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('purchase-refund')).toBeNull();
    cleanup();
    renderWith(true, { id: 7, status: 'refunded' }, []);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('purchase-refund')).toBeNull();
  });
});
