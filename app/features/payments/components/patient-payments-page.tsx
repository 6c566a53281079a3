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

const cell = "px-4 py-3";

/** A table of Mis Pagos: its column headings (the last one may be for screen readers only), then its rows. */
function PaymentsTable({
  columns,
  hiddenColumn,
  children,
}: {
  columns: readonly string[];
  hiddenColumn?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="mt-3 overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={cell}>
                {column}
              </th>
            ))}
            {hiddenColumn && (
              <th scope="col" className={cell}>
                <span className="sr-only">{hiddenColumn}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function Row({ children }: { children: React.ReactNode }) {
  return <tr className="border-t border-slate-100">{children}</tr>;
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
          <PaymentsTable columns={["Concepto", "Tipo", "Monto", "Estado"]}>
            {settled.map((charge) => (
              <Row key={charge.id}>
                <td className={cell}>{charge.concept}</td>
                <td className={cell}>{charge.kindLabel}</td>
                <td className={cell}>
                  {charge.amountLabel}
                  {charge.creditedLabel && (
                    <span className="block text-xs text-slate-600">
                      Cubierto con tu abono: {charge.creditedLabel}
                    </span>
                  )}
                </td>
                <td className={cell}>
                  <Badge tone={charge.statusTone}>{charge.statusLabel}</Badge>
                </td>
              </Row>
            ))}
          </PaymentsTable>
        </section>
      )}
      <section aria-labelledby="payments" className="mt-10">
        <h2 id="payments" className="text-xl font-semibold">
          Pagos y reembolsos
        </h2>
        {page.payments.length === 0 && page.refunds.length === 0 ? (
          <p className="mt-3 text-slate-700">Aún no has hecho pagos en línea.</p>
        ) : (
          <PaymentsTable
            columns={["Fecha", "Movimiento", "Concepto", "Monto", "Estado", "Medio de pago"]}
            hiddenColumn="Comprobante"
          >
            {page.payments.map((payment) => (
              <Row key={payment.id}>
                <td className={`${cell} whitespace-nowrap`}>{payment.dateLabel}</td>
                <td className={cell}>Pago</td>
                <td className={cell}>{payment.concept}</td>
                <td className={cell}>{payment.amountLabel}</td>
                <td className={cell}>
                  <Badge tone={payment.statusTone}>{payment.statusLabel}</Badge>
                </td>
                <td className={cell}>
                  {[
                    payment.methodLabel,
                    payment.cardLabel,
                    payment.installments ? `${payment.installments} cuotas` : null,
                  ]
                    .filter(Boolean)
                    .join(" · ") || "—"}
                </td>
                <td className={cell}>
                  {payment.receiptUrl && (
                    // A plain link: the PDF is a download, not a page of the app's router.
                    <a href={payment.receiptUrl} className="font-semibold text-brand-700 underline" download>
                      Comprobante de pago
                    </a>
                  )}
                </td>
              </Row>
            ))}
            {page.refunds.map((refund) => (
              <Row key={refund.id}>
                <td className={`${cell} whitespace-nowrap`}>{refund.dateLabel}</td>
                <td className={cell}>Reembolso</td>
                <td className={cell}>{refund.concept}</td>
                <td className={cell}>{refund.amountLabel}</td>
                <td className={cell}>
                  <Badge tone={refund.statusTone}>{refund.statusLabel}</Badge>
                </td>
                <td className={cell}>A la tarjeta del pago</td>
                <td className={cell}>—</td>
              </Row>
            ))}
          </PaymentsTable>
        )}
      </section>
    </>
  );
}
