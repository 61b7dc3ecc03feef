import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api';
import { createTranslator } from '../../i18n';
import { I18nContext } from '../../i18n-react';
import { EN, JA } from '../../test/messages';
import type { CardElementLike, PaymentApi, StripeLike } from './flow';
import StripeCard from './StripeCard';

afterEach(cleanup);

const TRANSACTION = '6f1c3f0e-8a5b-4c2d-9e7f-0a1b2c3d4e5f';

/** A Stripe.js double: the card Element mounts a marker; results are scripted per test. */
function fakeStripe(opts: {
  paymentMethod?: string | null;
  token?: string;
  confirm?: { error?: { message: string } };
} = {}) {
  const card: CardElementLike = {
    mount: (el) => {
      el.innerHTML = '<span data-testid="mounted">card</span>';
    },
  };
  const stripe = {
    elements: vi.fn(() => ({ create: vi.fn(() => card) })),
    createPaymentMethod: vi.fn(async () =>
      opts.paymentMethod === null ? undefined : { paymentMethod: { id: opts.paymentMethod ?? 'pm_card' } },
    ),
    createToken: vi.fn(async () => ({ token: { id: 'tok_1', card: { id: opts.token ?? 'card_1' } } })),
    confirmCardPayment: vi.fn(async () => opts.confirm ?? { paymentIntent: { id: 'pi_1', status: 'succeeded' } }),
  } satisfies StripeLike;
  return stripe;
}

/** Scripted API: `captures` are the answers of the capture calls in order (an error rejects). */
function fakeApi(captures: (ApiError | 'ok')[] = ['ok'], preOrder: ApiError | null = null) {
  const answers = [...captures];
  const calls = {
    preOrder: vi.fn(async () => {
      if (preOrder) throw preOrder;
      return { transaction_uuid: TRANSACTION, client_secret: 'pi_1_secret_x' };
    }),
    capture: vi.fn(async (_transaction: string, _method?: string) => {
      const answer = answers.shift() ?? 'ok';
      if (answer !== 'ok') throw answer;
      return { id: 1 };
    }),
  } satisfies PaymentApi;
  return calls;
}

function renderCard(stripe: StripeLike, calls: PaymentApi, lang: 'ja' | 'en' = 'en') {
  const navigate = vi.fn();
  render(
    <I18nContext.Provider value={createTranslator(lang === 'ja' ? JA : EN)}>
      <StripeCard
        lang={lang}
        applicationId={14}
        publishableKey="pk_test"
        completePath={lang === 'ja' ? '/payment/complete' : '/en/payment/complete'}
        payPath="/en/payment?application_id=14"
        amountLabel={lang === 'ja' ? '9,000円' : '¥9,000'}
        stripeFactory={() => stripe}
        calls={calls}
        navigate={navigate}
      />
    </I18nContext.Provider>,
  );
  return navigate;
}

const button = () => screen.getByTestId('pay-button') as HTMLButtonElement;

describe('stripe-card', () => {
  it('mounts the card and pays once however often the button is clicked', async () => {
    const stripe = fakeStripe();
    const calls = fakeApi();
    const navigate = renderCard(stripe, calls);
    await screen.findByTestId('mounted');
    expect(button().textContent).toBe('Pay ¥9,000');
    await act(async () => {
      fireEvent.click(button());
      fireEvent.click(button());
      fireEvent.click(button());
    });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(`/en/payment/complete?transaction=${TRANSACTION}`));
    expect(calls.preOrder).toHaveBeenCalledTimes(1);
    expect(calls.preOrder).toHaveBeenCalledWith();
    expect(calls.capture).toHaveBeenCalledTimes(1);
    expect(calls.capture).toHaveBeenCalledWith(TRANSACTION, 'pm_card');
    expect(button().disabled).toBe(true);
  });

  it('tokenizes the card when Stripe.js gives no PaymentMethod (localstripe)', async () => {
    const stripe = fakeStripe({ paymentMethod: null, token: 'card_42' });
    const calls = fakeApi();
    const navigate = renderCard(stripe, calls, 'ja');
    await screen.findByTestId('mounted');
    expect(button().textContent).toBe('9,000円を支払う');
    await act(async () => fireEvent.click(button()));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(stripe.createToken).toHaveBeenCalledTimes(1);
    expect(calls.capture).toHaveBeenCalledWith(TRANSACTION, 'card_42');
  });

  it('shows a decline and lets the payer try again, without retrying by itself', async () => {
    const calls = fakeApi([new ApiError(422, 'payment_declined', 'declined'), 'ok']);
    const navigate = renderCard(fakeStripe(), calls);
    await screen.findByTestId('mounted');
    await act(async () => fireEvent.click(button()));
    const error = await screen.findByTestId('card-error');
    expect(error.textContent).toBe('Your card was declined. Please try another card.');
    expect(error.getAttribute('role')).toBe('alert');
    expect(calls.capture).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
    expect(button().disabled).toBe(false);
    await act(async () => fireEvent.click(button()));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(calls.preOrder).toHaveBeenCalledTimes(2);
    expect(calls.capture).toHaveBeenCalledTimes(2);
  });

  it('authenticates 3-D Secure with Stripe.js, then asks the server once more without a card', async () => {
    const stripe = fakeStripe();
    const calls = fakeApi([new ApiError(409, 'payment_requires_action', 'action'), 'ok']);
    const navigate = renderCard(stripe, calls);
    await screen.findByTestId('mounted');
    await act(async () => fireEvent.click(button()));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x');
    expect(calls.capture.mock.calls).toEqual([
      [TRANSACTION, 'pm_card'],
      [TRANSACTION],
    ]);
  });

  it('a failed 3-D Secure check is shown and charges nothing more', async () => {
    const stripe = fakeStripe({ confirm: { error: { message: 'failed' } } });
    const calls = fakeApi([new ApiError(409, 'payment_requires_action', 'action')]);
    renderCard(stripe, calls);
    await screen.findByTestId('mounted');
    await act(async () => fireEvent.click(button()));
    expect((await screen.findByTestId('card-error')).dataset.code).toBe('auth_failed');
    expect(calls.capture).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an unknown outcome', new ApiError(502, 'payment_pending', 'pending')],
    ['a network failure', new ApiError(0, 'network_error', 'offline')],
    ['a payment still processing', new ApiError(409, 'payment_processing', 'processing')],
  ])('after %s it goes to the complete page and never repeats the capture', async (_what, error) => {
    const calls = fakeApi([error]);
    const navigate = renderCard(fakeStripe(), calls);
    await screen.findByTestId('mounted');
    await act(async () => fireEvent.click(button()));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(`/en/payment/complete?transaction=${TRANSACTION}`));
    expect(calls.capture).toHaveBeenCalledTimes(1);
  });

  it('says when the application is already paid and keeps the button off', async () => {
    const calls = fakeApi([], new ApiError(409, 'already_paid', 'paid'));
    renderCard(fakeStripe(), calls);
    await screen.findByTestId('mounted');
    await act(async () => fireEvent.click(button()));
    const error = await screen.findByTestId('card-error');
    expect(error.textContent).toContain('This application has already been paid.');
    expect(error.querySelector('a')?.getAttribute('href')).toBe('/en/payment?application_id=14');
    expect(button().disabled).toBe(true);
    expect(calls.capture).not.toHaveBeenCalled();
  });

  it('says so when Stripe.js cannot load', async () => {
    render(
      <I18nContext.Provider value={createTranslator(EN)}>
        <StripeCard
          applicationId={14}
          publishableKey="pk_test"
          completePath="/en/payment/complete"
          payPath="/en/payment?application_id=14"
          amountLabel="¥9,000"
          stripeFactory={() => {
            throw new Error('no Stripe');
          }}
          calls={fakeApi()}
        />
      </I18nContext.Provider>,
    );
    expect((await screen.findByTestId('card-unavailable')).textContent).toContain('could not be loaded');
    expect(button().disabled).toBe(true);
  });
});
