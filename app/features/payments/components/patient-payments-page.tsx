import { Form, useNavigation } from "react-router";
import { FormAlert } from "~/components/form-fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  PAYMENTS_OFF_NOTICE,
  type PatientChargeItem,
  type PatientPaymentsPage,
} from "../patient-payments-dto";

/** Mis Pagos (ADR 036): open charges with 'Pagar', then every attempt and refund with its receipt. */
export function PatientPayments({ page, error }: { page: PatientPaymentsPage; error?: string }) {
  const open = page.charges.filter((charge) => charge.payable);
  const empty = page.charges.length === 0 && page.payments.length === 0 && page.refunds.length === 0;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">Mis Pagos</h1>
      <p className="mt-2 text-slate-700">
        Tus abonos, cargos y pagos en línea con Webpay, y sus comprobantes.
      </p>
      {!page.onlinePayment && (
        <p role="status" className="mt-6 rounded-lg bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200">
          {PAYMENTS_OFF_NOTICE}
        </p>
      )}
      <FormAlert message={error} className="mt-6" />
      {empty ? (
        <p className="mt-8 rounded-xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-200">
          Aún no tienes cobros ni pagos registrados.
        </p>
      ) : (
        <>
          <section aria-labelledby="open-charges" className="mt-8">
            <h2 id="open-charges" className="text-xl font-semibold">
              Cobros pendientes
            </h2>
            {open.length === 0 ? (
              <p className="mt-3 text-slate-700">No tienes cobros pendientes.</p>
            ) : (
              <ul className="mt-3 space-y-3">
                {open.map((charge) => (
                  <OpenCharge key={charge.id} charge={charge} online={page.onlinePayment} />
                ))}
              </ul>
            )}
          </section>
          <History page={page} />
        </>
      )}
    </div>
  );
}

function OpenCharge({ charge, online }: { charge: PatientChargeItem; online: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("chargeId") === charge.id;
  return (
    <li className="flex flex-wrap items-center justify-between gap-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div>
        <p className="font-semibold">{charge.concept}</p>
        <p className="text-sm text-slate-600">
          {charge.kindLabel} · Total {charge.amountLabel}
          {charge.creditedLabel && <> · Cubierto con tu abono {charge.creditedLabel}</>}
        </p>
        <p className="mt-1 text-lg font-bold">Por pagar: {charge.dueLabel}</p>
      </div>
      {online && (
        <Form method="post">
          <input type="hidden" name="intent" value="pay" />
          <input type="hidden" name="chargeId" value={charge.id} />
          <Button type="submit" disabled={busy} aria-label={`Pagar ${charge.concept}`}>
            {busy ? "Abriendo Webpay…" : "Pagar"}
          </Button>
        </Form>
      )}
    </li>
  );
}

function History({ page }: { page: PatientPaymentsPage }) {
  const settled = page.charges.filter((charge) => !charge.payable);
  return (
    <>
      {settled.length > 0 && (
        <section aria-labelledby="charges" className="mt-10">
          <h2 id="charges" className="text-xl font-semibold">
            Otros cobros
          </h2>
          <div className="mt-3 overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Concepto
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Tipo
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Monto
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Estado
                  </th>
                </tr>
              </thead>
              <tbody>
                {settled.map((charge) => (
                  <tr key={charge.id} className="border-t border-slate-100">
                    <td className="px-4 py-3">{charge.concept}</td>
                    <td className="px-4 py-3">{charge.kindLabel}</td>
                    <td className="px-4 py-3">
                      {charge.amountLabel}
                      {charge.creditedLabel && (
                        <span className="block text-xs text-slate-600">
                          Cubierto con tu abono: {charge.creditedLabel}
                        </span>
                      )}
                    </td>
                    <td className="px-4 py-3">
                      <Badge tone={charge.statusTone}>{charge.statusLabel}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <section aria-labelledby="payments" className="mt-10">
        <h2 id="payments" className="text-xl font-semibold">
          Pagos y reembolsos
        </h2>
        {page.payments.length === 0 && page.refunds.length === 0 ? (
          <p className="mt-3 text-slate-700">Aún no has hecho pagos en línea.</p>
        ) : (
          <div className="mt-3 overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Fecha
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Concepto
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Monto
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Estado
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Medio de pago
                  </th>
                  <th scope="col" className="px-4 py-3">
                    <span className="sr-only">Comprobante</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.payments.map((payment) => (
                  <tr key={payment.id} className="border-t border-slate-100">
                    <td className="px-4 py-3 whitespace-nowrap">{payment.dateLabel}</td>
                    <td className="px-4 py-3">Pago: {payment.concept}</td>
                    <td className="px-4 py-3">{payment.amountLabel}</td>
                    <td className="px-4 py-3">
                      <Badge tone={payment.statusTone}>{payment.statusLabel}</Badge>
                    </td>
                    <td className="px-4 py-3">
                      {[
                        payment.methodLabel,
                        payment.cardLabel,
                        payment.installments ? `${payment.installments} cuotas` : null,
                      ]
                        .filter(Boolean)
                        .join(" · ") || "—"}
                    </td>
                    <td className="px-4 py-3">
                      {payment.receiptUrl && (
                        // A plain link: the PDF is a download, not a page of the app's router.
                        <a
                          href={payment.receiptUrl}
                          className="font-semibold text-brand-700 underline"
                          download
                        >
                          Comprobante de pago
                        </a>
                      )}
                    </td>
                  </tr>
                ))}
                {page.refunds.map((refund) => (
                  <tr key={refund.id} className="border-t border-slate-100">
                    <td className="px-4 py-3 whitespace-nowrap">{refund.dateLabel}</td>
                    <td className="px-4 py-3">Reembolso: {refund.concept}</td>
                    <td className="px-4 py-3">{refund.amountLabel}</td>
                    <td className="px-4 py-3">
                      <Badge tone={refund.statusTone}>{refund.statusLabel}</Badge>
                    </td>
                    <td className="px-4 py-3">A la tarjeta del pago</td>
                    <td className="px-4 py-3">—</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
