/**
 * The card payment of one won application (issue 13, spec §7 "Payments (no retry)") or of one
 * store order (issue 31), as the `stripe-card` island runs it:
 *
 * 1. `POST /api/v1/user/payment/pre_order` opens the attempt — or returns the one already open
 *    for this application and Stripe, so a second tab or a reload pays the same PaymentIntent.
 *    (The store: `POST /api/v1/store/items/{uuid}/orders` answers the buyer's open order, which
 *    must be the one the page shows: its amount is what the page said.)
 * 2. Stripe.js turns the card into a PaymentMethod (`createPaymentMethod`; a Stripe.js that
 *    returns none, such as localstripe's fake of it, gives a tokenized card instead).
 * 3. `POST /api/v1/user/payment/capture` (the store: `POST /api/v1/store/orders/{uuid}/capture`)
 *    confirms it on the server. When the card needs 3-D
 *    Secure (409 `payment_requires_action`), Stripe.js authenticates it with the
 *    PaymentIntent's client secret and the capture is asked once more, without a card.
 *
 * Every call is made once: the API client never repeats a POST, and nothing here loops. An
 * answer we cannot trust (a network failure, 502 `payment_pending`, 409 `payment_processing`)
 * is not retried either: the payer is sent to `/payment/complete`, which shows what the server
 * knows while it asks Stripe itself.
 */
import { ApiError, api } from '../../api';
import type { Lang } from '../../i18n';

/** What the island needs of a Stripe.js `Stripe` object. */
export interface StripeLike {
  elements(options?: Record<string, unknown>): ElementsLike;
  createPaymentMethod?(data: { type: 'card'; card: CardElementLike }): Promise<PaymentMethodResult | undefined>;
  createToken(card: CardElementLike): Promise<TokenResult | undefined>;
  confirmCardPayment(clientSecret: string, data?: Record<string, unknown>): Promise<ConfirmResult | undefined>;
}

export interface ElementsLike {
  create(type: 'card', options?: Record<string, unknown>): CardElementLike;
}

export interface CardElementLike {
  mount(el: HTMLElement): void;
  destroy?(): void;
  on?(event: string, handler: (event?: { error?: StripeErrorLike }) => void): void;
}

export interface StripeErrorLike {
  message?: string;
  code?: string;
}

interface PaymentMethodResult {
  paymentMethod?: { id: string };
  error?: StripeErrorLike;
}

interface TokenResult {
  token?: { id: string; card?: { id?: string } };
  error?: StripeErrorLike;
}

interface ConfirmResult {
  paymentIntent?: { id: string; status: string };
  error?: StripeErrorLike;
}

/** How a payment ended, for the island to show (message keys under `payment_form.`). */
export type Outcome =
  /** Settled: go to the complete page. */
  | { kind: 'done'; transaction: string }
  /** The server is finding out: go to the complete page, which says so. */
  | { kind: 'pending'; transaction: string }
  /** Not paid; `again`: the payer may try again (with the same or another card). */
  | { kind: 'failed'; message: string; params?: Record<string, string>; again: boolean };

/** An opened attempt: what is captured, and the client secret for 3-D Secure. */
export interface Opened {
  transaction_uuid: string;
  client_secret?: string | null;
}

/** The API calls of one payment, injectable for tests. */
export interface PaymentApi {
  preOrder(): Promise<Opened>;
  capture(transaction: string, paymentMethod?: string): Promise<unknown>;
}

/** The product API of application `applicationId` (cookie auth, CSRF header, never repeated). */
export function productApi(lang: Lang, applicationId: number): PaymentApi {
  return {
    preOrder: () =>
      api.post('/api/v1/user/payment/pre_order', {
        lang,
        body: { application_id: applicationId, payment_type: 'stripe' },
      }),
    capture: (transaction, paymentMethod) =>
      api.post('/api/v1/user/payment/capture', {
        lang,
        body: paymentMethod ? { transaction_uuid: transaction, payment_method: paymentMethod } : { transaction_uuid: transaction },
      }),
  };
}

/** The store's API for order `order` of item `item` (cookie auth, CSRF header, never repeated). */
export function storeApi(lang: Lang, item: string, order: string): PaymentApi {
  return {
    preOrder: async () => {
      const opened = await api.post('/api/v1/store/items/{uuid}/orders', {
        lang,
        path: { uuid: item },
        body: { payment_type: 'stripe' },
      });
      // Another order (the page's expired meanwhile): its amount may differ from the page's.
      if (opened.order.uuid !== order) throw new OrderChanged();
      return { transaction_uuid: order, client_secret: opened.client_secret };
    },
    capture: (transaction, paymentMethod) =>
      api.post('/api/v1/store/orders/{uuid}/capture', {
        lang,
        path: { uuid: transaction },
        body: paymentMethod ? { payment_method: paymentMethod } : {},
      }),
  };
}

/** The order the page shows is no longer the buyer's open one. */
export class OrderChanged extends Error {}

/** The message of an API error that ends the attempt (before anything was charged). */
function refused(err: unknown): Outcome {
  if (err instanceof OrderChanged) return { kind: 'failed', message: 'order_changed', again: false };
  if (!(err instanceof ApiError)) return { kind: 'failed', message: 'failed', again: true };
  switch (err.code) {
    case 'already_paid':
      return { kind: 'failed', message: 'already_paid', again: false };
    case 'already_purchased':
      return { kind: 'failed', message: 'already_purchased', again: false };
    case 'order_expired':
    case 'not_on_sale':
      return { kind: 'failed', message: 'order_expired', again: false };
    case 'payment_closed':
      return { kind: 'failed', message: 'closed', again: false };
    case 'provider_unavailable':
    case 'provider_refused':
      return { kind: 'failed', message: 'provider_unavailable', again: true };
    case 'csrf_failed':
      return { kind: 'failed', message: 'csrf_failed', again: false };
    default:
      if (err.status === 401) return { kind: 'failed', message: 'auth_error', again: false };
      return { kind: 'failed', message: 'failed', again: true };
  }
}

/** The card as a payment method id for the capture, or Stripe's message about the card. */
async function cardMethod(stripe: StripeLike, card: CardElementLike): Promise<{ id: string } | { error: string }> {
  if (typeof stripe.createPaymentMethod === 'function') {
    const result = await stripe.createPaymentMethod({ type: 'card', card });
    if (result?.paymentMethod?.id) return { id: result.paymentMethod.id };
    if (result?.error) return { error: result.error.message ?? result.error.code ?? '' };
  }
  const result = await stripe.createToken(card);
  const id = result?.token?.card?.id;
  if (id) return { id };
  return { error: result?.error?.message ?? result?.error?.code ?? '' };
}

/** What a capture answer means. `null`: 3-D Secure is needed. */
function captured(err: unknown, transaction: string): Outcome | null {
  if (!(err instanceof ApiError)) return { kind: 'pending', transaction };
  if (err.status === 0) return { kind: 'pending', transaction };
  switch (err.code) {
    case 'payment_requires_action':
      return null;
    case 'payment_pending':
    case 'payment_processing':
      return { kind: 'pending', transaction };
    case 'payment_declined':
      return { kind: 'failed', message: 'declined', again: true };
    case 'order_closed':
      return { kind: 'failed', message: 'order_closed', again: true };
    case 'payment_not_completed':
      return { kind: 'failed', message: 'failed', again: true };
    default:
      return refused(err);
  }
}

/** Pays what `calls` open with the card in `card`; see the module comment. */
export async function payByCard(stripe: StripeLike, card: CardElementLike, calls: PaymentApi): Promise<Outcome> {
  let opened: Opened;
  try {
    opened = await calls.preOrder();
  } catch (err) {
    return refused(err);
  }
  const transaction = opened.transaction_uuid;
  const method = await cardMethod(stripe, card);
  if ('error' in method) {
    return { kind: 'failed', message: 'card_error', params: { message: method.error }, again: true };
  }
  try {
    await calls.capture(transaction, method.id);
    return { kind: 'done', transaction };
  } catch (err) {
    const outcome = captured(err, transaction);
    if (outcome) return outcome;
  }
  // 3-D Secure: Stripe.js shows the bank's check, then the server reads the result.
  if (!opened.client_secret) return { kind: 'pending', transaction };
  const confirmed = await stripe.confirmCardPayment(opened.client_secret);
  if (!confirmed || confirmed.error) return { kind: 'failed', message: 'auth_failed', again: true };
  try {
    await calls.capture(transaction);
    return { kind: 'done', transaction };
  } catch (err) {
    return captured(err, transaction) ?? { kind: 'pending', transaction };
  }
}
