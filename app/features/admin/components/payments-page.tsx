import { useEffect, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { ActionMessage, AdminTable, Badge, DateCell, tdClass } from "~/components/admin-ui";
import { AdminShell } from "~/components/admin-shell";
import { FormAlert, InputField, SelectField, TextareaField } from "~/components/form-fields";
import { Button, buttonClass } from "~/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "~/components/ui/dialog";
import { chargeKindLabels, paymentStatusLabel } from "~/domain/payment-labels";
import { chargeKinds, paymentStatuses } from "~/domain/payments";
import { fieldError, formLevelMessage, type ActionResult } from "~/lib/base/action-result";
import type { ChargeDto, DepositRuleDto, PaymentAttemptDto, PaymentsPageDto } from "../payment-admin-dto";
import { depositKindLabels } from "../payment-admin-options";
import { REFUND_REASON_MIN } from "../payment-admin-schemas";

/** /admin/pagos (ADR 036): filters, the period's totals, the attempts with their refunds, fees, balances, deposits. */
export function AdminPaymentsPage({
  page,
  actionData,
}: {
  page: PaymentsPageDto;
  actionData: ActionResult | undefined;
}) {
  const { filters, query, canManage, totals, attempts, limit, fees, balances, deposits } = page;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <AdminShell isAdmin={canManage}>
      <h1 className="text-3xl font-bold">Pagos</h1>
      <p className="mt-2 text-slate-700">
        Intentos de pago en línea (Webpay Plus), reembolsos, cargos por cancelación tardía y abonos por
        tratamiento.
        {canManage ? "" : " Vista de solo lectura."}
      </p>

      <Form
        method="get"
        className="mt-6 grid gap-4 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-5"
      >
        <SelectField label="Estado" name="estado" defaultValue={filters.status ?? ""}>
          <option value="">Todos</option>
          {paymentStatuses.map((status) => (
            <option key={status} value={status}>
              {paymentStatusLabel(status).label}
            </option>
          ))}
        </SelectField>
        <SelectField label="Concepto" name="concepto" defaultValue={filters.kind ?? ""}>
          <option value="">Todos</option>
          {chargeKinds.map((kind) => (
            <option key={kind} value={kind}>
              {chargeKindLabels[kind]}
            </option>
          ))}
        </SelectField>
        <InputField label="Desde" name="desde" type="date" defaultValue={filters.from} />
        <InputField label="Hasta" name="hasta" type="date" defaultValue={filters.to} />
        <InputField label="Paciente (nombre o e-mail)" name="q" type="search" defaultValue={filters.search} />
        <div className="flex flex-wrap items-center gap-3 sm:col-span-5">
          <Button type="submit">Filtrar</Button>
          <a href={`/admin/pagos.csv?${query}`} className={buttonClass("secondary")} download>
            Descargar CSV
          </a>
          <p className="text-xs text-slate-600">Días en hora de Santiago.</p>
        </div>
      </Form>

      <section aria-labelledby="totals-heading" className="mt-6">
        <h2 id="totals-heading" className="sr-only">
          Totales del período
        </h2>
        <dl className="grid gap-3 sm:grid-cols-4" data-testid="payment-totals">
          <Total label="Pagado" value={totals.paid} />
          <Total label="Reembolsado" value={totals.refunded} />
          <Total label="Neto" value={totals.net} />
          <Total label="Cargos pendientes" value={totals.pending} />
        </dl>
      </section>

      <div className="mt-6">
        <ActionMessage result={actionData} />
      </div>

      <section aria-labelledby="attempts-heading" className="mt-2">
        <h2 id="attempts-heading" className="text-xl font-semibold">
          Intentos de pago ({attempts.length})
        </h2>
        {attempts.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No hay intentos de pago con estos filtros.</p>
        ) : (
          <div className="mt-3">
            <AdminTable
              label="Intentos de pago"
              caption="Intentos de pago del período"
              columns={[
                "Fecha",
                "Paciente",
                "Concepto",
                "Monto",
                "Estado",
                "Método",
                "Orden de compra",
                "Conciliación",
                ...(canManage ? ["Acciones"] : []),
              ]}
              testId="payments-table"
            >
              {attempts.map((attempt) => (
                <AttemptRow key={attempt.id} attempt={attempt} canManage={canManage} />
              ))}
            </AdminTable>
          </div>
        )}
        {attempts.length === limit && (
          <p className="mt-2 text-xs text-slate-600">
            Se muestran los {limit} más recientes; el CSV incluye todos los del período.
          </p>
        )}
      </section>

      <ChargeSection
        id="fees-heading"
        title="Cargos por cancelación tardía"
        empty="No hay cargos por cancelación tardía que se puedan condonar."
        charges={fees}
        rowAction={canManage ? "waive" : null}
        busy={busy}
      />

      <ChargeSection
        id="balances-heading"
        title="Pagos de saldo por registrar en Dentalink"
        description="La API de Dentalink no permite crear pagos: regístralos a mano en Dentalink y márcalos aquí."
        empty="No hay pagos de saldo pendientes de registrar."
        charges={balances}
        rowAction={canManage ? "dentalink" : null}
        busy={busy}
        badge="Registrar en Dentalink"
      />

      {deposits && <DepositSection deposits={deposits} busy={busy} />}
    </AdminShell>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold">{value}</dd>
    </div>
  );
}

function AttemptRow({ attempt, canManage }: { attempt: PaymentAttemptDto; canManage: boolean }) {
  return (
    <tr>
      <td className={tdClass}>
        <DateCell value={attempt.created} />
      </td>
      <PatientCell name={attempt.patientName} email={attempt.patientEmail} />
      <td className={tdClass}>
        {attempt.concept}
        <div className="mt-1 text-xs text-slate-600">{attempt.kindLabel}</div>
      </td>
      <td className={`${tdClass} whitespace-nowrap`}>
        {attempt.amountLabel}
        {attempt.refundedLabel && <div className="mt-1 text-xs text-slate-600">{attempt.refundedLabel}</div>}
      </td>
      <td className={tdClass}>
        <Badge tone={attempt.statusTone}>{attempt.statusLabel}</Badge>
      </td>
      <td className={tdClass}>{attempt.method}</td>
      <td className={`${tdClass} font-mono text-xs`}>{attempt.buyOrder}</td>
      <td className={tdClass}>
        {attempt.reconciliation}
        <div className="mt-1 text-xs text-slate-600">
          {attempt.checks === 1 ? "1 verificación" : `${attempt.checks} verificaciones`}
        </div>
        {attempt.lastError && (
          <div className="mt-1 max-w-xs text-xs break-words text-red-800">
            Último error: {attempt.lastError}
          </div>
        )}
      </td>
      {canManage && (
        <td className={tdClass}>{attempt.refundable > 0 ? <RefundDialog attempt={attempt} /> : "—"}</td>
      )}
    </tr>
  );
}

/**
 * An admin's change that needs a reason (a refund, a forgiven fee): a small button opening a dialog with the form,
 * posted by a fetcher so the page stays where it is; the reason is recorded in the audit log.
 */
function ReasonDialog({
  trigger,
  triggerLabel,
  title,
  description,
  testId,
  intent,
  hidden,
  submitLabel,
  children,
}: {
  trigger: string;
  triggerLabel: string;
  title: string;
  description: string;
  testId: string;
  intent: "refund" | "waive";
  hidden: Record<string, string>;
  submitLabel: string;
  /** Fields before the reason, given the last answer (for their errors). */
  children?: (result: ActionResult | undefined) => React.ReactNode;
}) {
  const fetcher = useFetcher<ActionResult>();
  const [open, setOpen] = useState(false);
  const result = fetcher.data;
  // Closed, the dialog starts over (the form, not the last answer) — but only once the fetcher is idle: reset()
  // aborts the page's revalidation after the change, which would leave the row without it.
  const idle = fetcher.state === "idle";
  useEffect(() => {
    if (!open && idle && result) fetcher.reset?.();
  }, [open, idle, result, fetcher]);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary" className="px-3 py-1 text-sm" aria-label={triggerLabel}>
          {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent title={title} description={description} testId={testId}>
        {result?.ok ? (
          <p role="status" className="rounded-lg bg-brand-50 p-3 text-sm font-medium text-brand-900">
            {result.message}
          </p>
        ) : (
          <fetcher.Form method="post" action="/admin/pagos" className="space-y-4" preventScrollReset>
            <input type="hidden" name="intent" value={intent} />
            {Object.entries(hidden).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <FormAlert message={formLevelMessage(result)} />
            {children?.(result)}
            <TextareaField
              label="Motivo"
              name="reason"
              rows={3}
              minLength={REFUND_REASON_MIN}
              hint={`Al menos ${REFUND_REASON_MIN} caracteres; queda en la auditoría.`}
              error={fieldError(result, "reason")}
              required
            />
            <Button type="submit" disabled={!idle}>
              {submitLabel}
            </Button>
          </fetcher.Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** 'Reembolsar': the whole remaining amount by default, or part of it. */
function RefundDialog({ attempt }: { attempt: PaymentAttemptDto }) {
  return (
    <ReasonDialog
      trigger="Reembolsar"
      triggerLabel={`Reembolsar el pago ${attempt.buyOrder}`}
      title="Reembolsar pago"
      description={`${attempt.concept} · ${attempt.patientName} · orden ${attempt.buyOrder}. Se puede reembolsar hasta ${attempt.refundableLabel}.`}
      testId="refund-dialog"
      intent="refund"
      hidden={{ paymentId: attempt.id }}
      submitLabel="Solicitar reembolso"
    >
      {(result) => (
        <InputField
          label="Monto a reembolsar (pesos)"
          name="amount"
          inputMode="numeric"
          defaultValue={String(attempt.refundable)}
          hint="Todo lo disponible, o una parte."
          error={fieldError(result, "amount")}
          required
        />
      )}
    </ReasonDialog>
  );
}

/** 'Condonar': forgives a late-cancellation fee (reason required); a deposit applied to it goes back. */
function WaiveDialog({ charge }: { charge: ChargeDto }) {
  return (
    <ReasonDialog
      trigger="Condonar"
      triggerLabel={`Condonar el cargo de ${charge.patientName}`}
      title="Condonar cargo"
      description={`${charge.concept} · ${charge.patientName} · ${charge.amountLabel}.`}
      testId="waive-dialog"
      intent="waive"
      hidden={{ chargeId: charge.id }}
      submitLabel="Condonar"
    />
  );
}

/** Staff, admins included: the patient's name with the e-mail below, as a row's heading. */
function PatientCell({ name, email }: { name: string; email: string }) {
  return (
    <th scope="row" className={`${tdClass} font-medium`}>
      {name}
      <div className="mt-1 text-xs font-normal break-all text-slate-600">{email}</div>
    </th>
  );
}

function ChargeSection({
  id,
  title,
  description,
  empty,
  charges,
  rowAction,
  busy,
  badge,
}: {
  id: string;
  title: string;
  description?: string;
  empty: string;
  charges: ChargeDto[];
  rowAction: "waive" | "dentalink" | null;
  busy: boolean;
  badge?: string;
}) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-xl font-semibold">
        {title} ({charges.length})
      </h2>
      {description && <p className="mt-1 text-sm text-slate-700">{description}</p>}
      {charges.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <div className="mt-3">
          <AdminTable
            label={title}
            caption={title}
            columns={["Paciente", "Concepto", "Monto", "Detalle", "Creado", ...(rowAction ? ["Acción"] : [])]}
          >
            {charges.map((charge) => (
              <tr key={charge.id}>
                <PatientCell name={charge.patientName} email={charge.patientEmail} />
                <td className={tdClass}>{charge.concept}</td>
                <td className={`${tdClass} whitespace-nowrap`}>{charge.amountLabel}</td>
                <td className={tdClass}>
                  {badge && (
                    <div className="mb-1">
                      <Badge tone="info">{badge}</Badge>
                    </div>
                  )}
                  {charge.note}
                </td>
                <td className={tdClass}>
                  <DateCell value={charge.created} />
                </td>
                {rowAction && (
                  <td className={tdClass}>
                    {rowAction === "waive" ? (
                      <WaiveDialog charge={charge} />
                    ) : (
                      <DentalinkForm charge={charge} busy={busy} />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
    </section>
  );
}

/** Marks a balance payment as recorded by hand at Dentalink (its API takes no payments, ADR 036). */
function DentalinkForm({ charge, busy }: { charge: ChargeDto; busy: boolean }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="dentalink" />
      <input type="hidden" name="chargeId" value={charge.id} />
      <Button
        type="submit"
        variant="secondary"
        className="px-3 py-1 text-sm"
        disabled={busy}
        aria-label={`Marcar como registrado en Dentalink el pago de ${charge.patientName}`}
      >
        Registrado en Dentalink
      </Button>
    </Form>
  );
}

/** 'Abonos por tratamiento': none, a fixed amount or a percentage of the list price; checked on the server. */
function DepositSection({ deposits, busy }: { deposits: DepositRuleDto[]; busy: boolean }) {
  return (
    <section aria-labelledby="deposits-heading" className="mt-10">
      <h2 id="deposits-heading" className="text-xl font-semibold">
        Abonos por tratamiento
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        El abono se paga en línea al reservar y se descuenta del precio. Un porcentaje se calcula sobre el
        precio de lista.
      </p>
      <ul className="mt-4 space-y-3">
        {deposits.map((deposit) => (
          <li key={deposit.treatmentId} className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
            <Form
              method="post"
              preventScrollReset
              className="grid items-end gap-3 sm:grid-cols-[1fr_12rem_10rem_auto]"
            >
              <input type="hidden" name="intent" value="deposit" />
              <input type="hidden" name="treatmentId" value={deposit.treatmentId} />
              <div>
                <p className="font-semibold">{deposit.name}</p>
                <p className="text-sm text-slate-600">
                  Precio {deposit.priceLabel} · {deposit.summary}
                </p>
              </div>
              <SelectField
                label={`Tipo de abono de ${deposit.name}`}
                name="kind"
                defaultValue={deposit.kind}
                key={`${deposit.kind}-${deposit.value}`}
              >
                {(["none", "fixed", "percent"] as const).map((kind) => (
                  <option key={kind} value={kind}>
                    {depositKindLabels[kind]}
                  </option>
                ))}
              </SelectField>
              <InputField
                label="Monto (CLP) o porcentaje"
                name="value"
                inputMode="numeric"
                defaultValue={deposit.value}
                key={`value-${deposit.value}`}
              />
              <Button type="submit" variant="secondary" disabled={busy}>
                Guardar
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
