import { data } from "react-router";
import type { Route } from "./+types/payment-receipt";
import { getDb } from "~/db/client.server";
import { patientReceipt } from "~/features/payments/patient-payments-service.server";
import { receiptFileName, renderReceiptPdf } from "~/features/payments/payment-receipt-pdf.server";
import { isAppError } from "~/lib/base/errors";
import { clinicFacts } from "~/lib/base/env.server";
import { requireUser } from "~/lib/guards.server";

/**
 * GET /paciente/pagos/:paymentId/comprobante — the PDF receipt of one of the session's own authorized payments
 * (ADR 036); another patient's payment, or one never authorized, is a 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const receipt = await patientReceipt(await getDb(), user.id, args.params.paymentId);
    const clinic = clinicFacts();
    // ClinicFacts has no RUT yet: the receipt prints the clinic's RUT once the configuration carries one.
    const body = await renderReceiptPdf(receipt, { name: clinic.name, address: clinic.address });
    return new Response(new Uint8Array(body), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${receiptFileName(receipt.buyOrder)}"`,
        "Content-Length": String(body.length),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
