/**
 * Island `stripe-card` (/payment/confirm with Stripe; the store's `/store/orders/{uuid}`): the
 * card form of one won application, or of one store order (`storeItem` and `storeOrder`).
 * Stripe.js comes from the page (`<script id="stripe-js">`, the URL of the server's
 * `stripe_js_url`; the page's Content-Security-Policy allows its origin); the island waits for
 * it, mounts Stripe's card Element and, on "Pay", runs {@link payByCard}.
 *
 * The pay button is disabled from the first click until the payment has an answer (a ref blocks
 * a second click even before React re-renders), so a double click opens one payment; a second
 * tab or a reload reuses the attempt the server keeps open. Nothing is retried automatically: a
 * decline or a refusal re-enables the button for the payer to decide; an unknown outcome goes
 * to `/payment/complete`, where the server tells what it knows.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { hasAuthError, onAuthError, signInHref } from '../../auth';
import { documentLang, type Lang } from '../../i18n';
import { useT } from '../../i18n-react';
import { payByCard, productApi, storeApi, type CardElementLike, type Outcome, type PaymentApi, type StripeLike } from './flow';
import './stripe-card.css';

export interface StripeCardProps {
  lang?: Lang;
  /** The won application paid for… */
  applicationId?: number;
  /** …or the store item and the buyer's order for it. */
  storeItem?: string;
  storeOrder?: string;
  publishableKey: string;
  /** `/payment/complete` (the store: the order's page) in the page's language. */
  completePath: string;
  /** `/payment?application_id=…` (the store: the item's page) in the page's language. */
  payPath: string;
  /** The fee as the page shows it (`9,000円`, `¥9,000`). */
  amountLabel: string;
  /** Tests: the Stripe constructor and the API calls. */
  stripeFactory?: (key: string) => StripeLike;
  calls?: PaymentApi;
  navigate?: (href: string) => void;
}

/** How long to wait for Stripe.js before saying the form cannot load. */
const STRIPE_JS_WAIT_MS = 20_000;

type StripeConstructor = (key: string) => StripeLike;

/** The page's `window.Stripe`, once its script has run. */
function waitForStripeJs(): Promise<StripeConstructor> {
  const ready = () => (window as unknown as { Stripe?: StripeConstructor }).Stripe;
  const found = ready();
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const script = document.getElementById('stripe-js');
    const done = () => {
      const ctor = ready();
      if (ctor) resolve(ctor);
      else reject(new Error('Stripe.js did not define Stripe'));
    };
    const timer = window.setTimeout(done, STRIPE_JS_WAIT_MS);
    script?.addEventListener('load', () => {
      window.clearTimeout(timer);
      done();
    });
    script?.addEventListener('error', () => {
      window.clearTimeout(timer);
      reject(new Error('Stripe.js failed to load'));
    });
  });
}

type Phase = 'loading' | 'ready' | 'unavailable';

interface Shown {
  message: string;
  params?: Record<string, string>;
}

export default function StripeCard(props: StripeCardProps) {
  const { applicationId, storeItem, storeOrder, publishableKey, completePath, payPath, amountLabel } = props;
  const t = useT();
  const lang: Lang = props.lang === 'en' || props.lang === 'ja' ? props.lang : documentLang();
  const id = useId();
  const [phase, setPhase] = useState<Phase>('loading');
  const [busy, setBusy] = useState(false);
  const [closed, setClosed] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [authError, setAuthError] = useState(hasAuthError);
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<StripeLike | null>(null);
  const cardRef = useRef<CardElementLike | null>(null);
  const inFlight = useRef(false);

  useEffect(() => onAuthError(() => setAuthError(true)), []);

  useEffect(() => {
    let cancelled = false;
    const factory = props.stripeFactory ? Promise.resolve(props.stripeFactory) : waitForStripeJs();
    factory
      .then((Stripe) => {
        if (cancelled || cardRef.current || !mountRef.current) return;
        const stripe = Stripe(publishableKey);
        const card = stripe.elements({ locale: lang }).create('card', { hidePostalCode: true });
        card.mount(mountRef.current);
        stripeRef.current = stripe;
        cardRef.current = card;
        setPhase('ready');
      })
      .catch((err: unknown) => {
        console.error('[vmarket] the card form could not load', err);
        if (!cancelled) setPhase('unavailable');
      });
    return () => {
      cancelled = true;
    };
    // Mounted once: Stripe's Element lives as long as the page.
  }, []);

  const go = props.navigate ?? ((href: string) => window.location.assign(href));

  async function pay(event: FormEvent) {
    event.preventDefault();
    const stripe = stripeRef.current;
    const card = cardRef.current;
    if (inFlight.current || closed || !stripe || !card) return;
    inFlight.current = true;
    setBusy(true);
    setShown(null);
    const calls =
      props.calls ??
      (storeItem && storeOrder ? storeApi(lang, storeItem, storeOrder) : productApi(lang, applicationId ?? 0));
    const outcome: Outcome = await payByCard(stripe, card, calls).catch(
      (err: unknown): Outcome => {
        console.error('[vmarket] payment failed', err);
        return { kind: 'failed', message: 'failed', again: true };
      },
    );
    if (outcome.kind !== 'failed') {
      // Keep the button disabled while the browser leaves.
      go(`${completePath}?transaction=${encodeURIComponent(outcome.transaction)}`);
      return;
    }
    setShown({ message: outcome.message, params: outcome.params });
    if (!outcome.again) setClosed(true);
    inFlight.current = false;
    setBusy(false);
  }

  const hint = `${id}-hint`;
  const label = `${id}-label`;
  const signIn = signInHref();
  return (
    <form className="stripe-card" onSubmit={pay} noValidate data-testid="card-form" aria-busy={busy}>
      <p className="stripe-card__label" id={label}>
        {t('payment_form.card')}
      </p>
      <p className="stripe-card__hint" id={hint}>
        {t('payment_form.card_hint')}
      </p>
      <div
        className="stripe-card__element"
        role="group"
        aria-labelledby={label}
        aria-describedby={hint}
        ref={mountRef}
        data-testid="card-element"
      />
      {phase === 'loading' && (
        <p className="stripe-card__status" role="status">
          {t('payment_form.loading')}
        </p>
      )}
      {phase === 'unavailable' && (
        <p className="stripe-card__error" role="alert" data-testid="card-unavailable">
          {t('payment_form.unavailable')}{' '}
          <a href={window.location.href}>{t('payment_form.reload')}</a>
        </p>
      )}
      {authError ? (
        <p className="stripe-card__error" role="alert" data-testid="card-auth-error">
          {t('payment_form.auth_error')} {signIn && <a href={signIn}>{t('payment_form.sign_in')}</a>}
        </p>
      ) : (
        shown && (
          <p className="stripe-card__error" role="alert" data-testid="card-error" data-code={shown.message}>
            {t(`payment_form.${shown.message}`, shown.params)}
            {closed && (
              <>
                {' '}
                <a href={payPath}>{t('payment_form.see_payment')}</a>
              </>
            )}
          </p>
        )
      )}
      <button
        className="button button--primary stripe-card__pay"
        type="submit"
        disabled={phase !== 'ready' || busy || closed}
        data-testid="pay-button"
      >
        {busy ? t('payment_form.paying') : t('payment_form.pay', { amount: amountLabel })}
      </button>
    </form>
  );
}
