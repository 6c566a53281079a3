import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { PatientPaymentsPage } from "../patient-payments-dto";
import { PatientPayments } from "./patient-payments-page";

const page: PatientPaymentsPage = {
  onlinePayment: true,
  charges: [
    {
      id: "c1",
      concept: "Cancelación tardía: Implante dental",
      kindLabel: "Cargo por cancelación tardía",
      amountLabel: "$40.000",
      creditedLabel: "$15.000",
      due: 25_000,
      dueLabel: "$25.000",
      status: "open",
      statusLabel: "Pendiente",
      statusTone: "info",
      payable: true,
    },
  ],
  payments: [
    {
      id: "p1",
      dateLabel: "15-01-2026, 09:30",
      concept: "Abono: Limpieza dental",
      amountLabel: "$20.000",
      status: "authorized",
      statusLabel: "Pagado",
      statusTone: "good",
      methodLabel: "Crédito",
      cardLabel: "···· 6623",
      installments: 3,
      receiptUrl: "/paciente/pagos/p1/comprobante",
    },
  ],
  refunds: [],
};

function render(data: PatientPaymentsPage) {
  const Stub = createRoutesStub([
    { path: "/paciente/pagos", Component: () => <PatientPayments page={data} /> },
  ]);
  return renderToString(<Stub initialEntries={["/paciente/pagos"]} />);
}

describe("PatientPayments", () => {
  it("offers 'Pagar' on an open charge and the receipt of a paid attempt", () => {
    const html = render(page);
    expect(html).toContain("Mis Pagos");
    expect(html).toContain("Cobros pendientes");
    expect(html).toContain("Por pagar: <!-- -->$25.000");
    expect(html).toContain(">Pagar</button>");
    expect(html).toContain('href="/paciente/pagos/p1/comprobante"');
    expect(html).toContain("Comprobante de pago");
    expect(html).toContain("Crédito · ···· 6623 · 3 cuotas");
  });

  it("says online payment is off and offers no 'Pagar'", () => {
    const html = render({ ...page, onlinePayment: false });
    expect(html).toContain(
      "El pago en línea no está disponible en este momento. Puedes pagar en la clínica.",
    );
    expect(html).not.toContain(">Pagar</button>");
  });

  it("has an empty state", () => {
    const html = render({ onlinePayment: true, charges: [], payments: [], refunds: [] });
    expect(html).toContain("Aún no tienes cobros ni pagos registrados.");
  });
});
