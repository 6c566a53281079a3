import { CircleAlert, CircleCheck, CreditCard, Hourglass } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { FormAlert } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import { receiptPath } from "../payment-paths";

/** What the checkout page shows: built field by field on the server (ADR 036). */
export interface CheckoutView {
  concept: string;
  amountLabel: string;
  /** Webpay's form URL, and the token it must receive by POST as token_ws. */
  formUrl: string;
  token: string;
}

/**
 * The step between us and Webpay: the concept and the amount, and a form that posts token_ws to Webpay (Webpay asks
 * for a POST). It submits itself once the page runs; without JavaScript the button does it.
 */
export function CheckoutPage({ view }: { view: CheckoutView }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  return (
    <section className="mx-auto max-w-xl px-4 py-12" data-testid="webpay-checkout">
      <title>Pagar con Webpay | Río Clínica</title>
      <div className="flex items-center gap-3">
        <CreditCard aria-hidden className="size-8 text-brand-700" />
        <h1 className="text-3xl font-extrabold">Pagar con Webpay</h1>
      </div>
      <dl className="mt-6 divide-y divide-slate-100 rounded-lg bg-slate-50 px-4 py-2">
        <div className="flex justify-between gap-3 py-2">
          <dt className="text-slate-700">Concepto</dt>
          <dd className="font-medium">{view.concept}</dd>
        </div>
        <div className="flex justify-between gap-3 py-2">
          <dt className="text-slate-700">Monto</dt>
          <dd className="font-semibold" data-testid="checkout-amount">
            {view.amountLabel}
          </dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-700" role="status">
        Te estamos llevando al sitio de pago de Webpay (Transbank). Los datos de tu tarjeta se ingresan allí y
        no pasan por la clínica.
      </p>
      <form ref={form} method="post" action={view.formUrl} className="mt-6">
        <input type="hidden" name="token_ws" value={view.token} />
        <Button type="submit">Ir a Webpay</Button>
      </form>
    </section>
  );
}

export type ResultState = "authorized" | "rejected" | "aborted" | "expired" | "created";

/** What the result page shows (ADR 036). */
export interface PaymentResultView {
  paymentId: string;
  state: ResultState;
  concept: string;
  amountLabel: string;
  authorizationCode: string | null;
  cardLast4: string | null;
  isDeposit: boolean;
  /** The deposit's booking is confirmed now. */
  appointmentConfirmed: boolean;
  /** The deposit's booking was released ('Pago no completado'). */
  slotReleased: boolean;
  /** 'Reintentar pago' is offered (the charge is still open and online payment is on). */
  canRetry: boolean;
}

const FAILED_TEXT: Record<"rejected" | "aborted" | "expired", { title: string; text: string }> = {
  rejected: { title: "Pago rechazado", text: "Tu banco rechazó el pago. No se hizo ningún cargo." },
  aborted: { title: "Pago anulado", text: "Anulaste el pago en Webpay. No se hizo ningún cargo." },
  expired: { title: "Tiempo agotado", text: "El tiempo para pagar se agotó. No se hizo ningún cargo." },
};

/** Seconds between two looks at an attempt still being settled. */
export const RESULT_REFRESH_SECONDS = 3;

export function PaymentResultPage({ view, error }: { view: PaymentResultView; error: string | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  if (view.state === "created") {
    return (
      <section className="mx-auto max-w-xl px-4 py-12" data-testid="payment-result" data-state="created">
        <title>Confirmando tu pago | Río Clínica</title>
        {/* Looks again every few seconds, with or without JavaScript, until Webpay's answer is recorded. */}
        <meta httpEquiv="refresh" content={String(RESULT_REFRESH_SECONDS)} />
        <div className="flex items-center gap-3">
          <Hourglass aria-hidden className="size-8 text-brand-700" />
          <h1 className="text-3xl font-extrabold">Confirmando tu pago</h1>
        </div>
        <p className="mt-4" role="status">
          Estamos confirmando tu pago con Webpay…
        </p>
        <p className="mt-2 text-sm text-slate-700">
          Esta página se actualiza sola. Si no cambia en un minuto,{" "}
          <Link to="." reloadDocument className="text-brand-700 underline underline-offset-2">
            vuelve a cargarla
          </Link>{" "}
          o revisa{" "}
          <Link to="/paciente/citas" className="text-brand-700 underline underline-offset-2">
            Mis Citas
          </Link>
          .
        </p>
      </section>
    );
  }
  if (view.state === "authorized") {
    return (
      <section className="mx-auto max-w-xl px-4 py-12" data-testid="payment-result" data-state="authorized">
        <title>Pago aprobado | Río Clínica</title>
        <div className="flex items-center gap-3">
          <CircleCheck aria-hidden className="size-8 text-brand-700" />
          <h1 className="text-3xl font-extrabold">¡Pago aprobado!</h1>
        </div>
        <dl className="mt-6 divide-y divide-slate-100 rounded-lg bg-slate-50 px-4 py-2">
          <ResultRow label="Concepto">{view.concept}</ResultRow>
          <ResultRow label="Monto">{view.amountLabel}</ResultRow>
          {view.authorizationCode && (
            <ResultRow label="Código de autorización">{view.authorizationCode}</ResultRow>
          )}
          {view.cardLast4 && <ResultRow label="Tarjeta">terminada en {view.cardLast4}</ResultRow>}
        </dl>
        {view.appointmentConfirmed && (
          <p className="mt-4" role="status">
            Tu cita quedó <strong>Confirmada</strong>. Puedes verla en{" "}
            <Link to="/paciente/citas" className="text-brand-700 underline underline-offset-2">
              Mis Citas
            </Link>
            .
          </p>
        )}
        <p className="mt-4">
          <a
            href={receiptPath(view.paymentId)}
            className="text-brand-700 underline underline-offset-2"
            data-testid="receipt-link"
          >
            Descargar comprobante
          </a>
        </p>
      </section>
    );
  }
  const failed = FAILED_TEXT[view.state];
  return (
    <section className="mx-auto max-w-xl px-4 py-12" data-testid="payment-result" data-state={view.state}>
      <title>{`${failed.title} | Río Clínica`}</title>
      <div className="flex items-center gap-3">
        <CircleAlert aria-hidden className="size-8 text-accent" />
        <h1 className="text-3xl font-extrabold">{failed.title}</h1>
      </div>
      <p className="mt-4" role="status">
        {failed.text}
      </p>
      {view.isDeposit && view.slotReleased && (
        <p className="mt-2">Liberamos el horario que habías reservado.</p>
      )}
      <dl className="mt-6 divide-y divide-slate-100 rounded-lg bg-slate-50 px-4 py-2">
        <ResultRow label="Concepto">{view.concept}</ResultRow>
        <ResultRow label="Monto">{view.amountLabel}</ResultRow>
      </dl>
      <FormAlert message={error} className="mt-4" />
      <div className="mt-6 flex flex-wrap items-center gap-3">
        {view.canRetry && (
          <Form method="post">
            <input type="hidden" name="intent" value="retry" />
            <Button type="submit" disabled={busy}>
              {busy ? "Abriendo Webpay..." : "Reintentar pago"}
            </Button>
          </Form>
        )}
        <Link to="/paciente/citas" className="text-brand-700 underline underline-offset-2">
          Ir a Mis Citas
        </Link>
      </div>
    </section>
  );
}

function ResultRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-2">
      <dt className="text-slate-700">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}
