import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { users } from "~/db/schema";
import { formatCLP } from "~/domain/format";
import { templateContent } from "~/domain/whatsapp-templates";
import { accountSubject, mayContact } from "~/features/consent/consent-service.server";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { enqueue } from "~/features/outbox/outbox.server";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";

export type PaymentNoticeEvent = "payment_received" | "refund_issued" | "fee_pending";

export interface PaymentNotice {
  event: PaymentNoticeEvent;
  patientId: string;
  amount: number;
  concept: string;
  /** What makes the notice one of a kind (its idempotency key): the payment, the refund or the charge. */
  paymentId?: string;
  refundId?: string;
  chargeId?: string;
}

const subjects: Record<PaymentNoticeEvent, string> = {
  payment_received: "Recibimos tu pago",
  refund_issued: "Emitimos un reembolso",
  fee_pending: "Tienes un cargo pendiente",
};

/**
 * Tells the patient about their money, in the caller's transaction (outbox): by WhatsApp when they agreed to it in
 * Mi Perfil and have a phone, otherwise by e-mail. No amount or concept names anyone but the patient themselves.
 */
export async function notifyPayment(tx: Database, notice: PaymentNotice) {
  const [patient] = await tx
    .select({
      firstName: users.firstName,
      email: users.email,
      phone: users.phone,
      optIn: users.whatsappOptInAt,
    })
    .from(users)
    .where(eq(users.id, notice.patientId));
  if (!patient) return;
  const clinic = clinicFacts();
  const amount = formatCLP(notice.amount);
  const link = `${publicBaseUrl()}/paciente/pagos`;
  const name = patient.firstName || "paciente";
  const text = {
    payment_received: `Hola ${name}, recibimos tu pago de ${amount} por ${notice.concept}. Puedes descargar tu comprobante en Mis Pagos: ${link}`,
    refund_issued: `Hola ${name}, emitimos un reembolso de ${amount} por ${notice.concept} a la tarjeta con que pagaste. Según tu banco, puede tardar algunos días en verse.`,
    fee_pending: `Hola ${name}, tienes un cargo pendiente de ${amount} por ${notice.concept}. Puedes pagarlo en línea en Mis Pagos: ${link}`,
  }[notice.event];
  const key = `payment-notice:${notice.event}:${notice.refundId ?? notice.paymentId ?? notice.chargeId}`;
  // WhatsApp only with the consent in force (ADR 037); otherwise the notice goes by e-mail, as before.
  const whatsApp =
    patient.optIn &&
    patient.phone &&
    (await mayContact(tx, await accountSubject(tx, notice.patientId), "recordatorios_whatsapp")).allowed;
  if (whatsApp && patient.phone) {
    const template =
      notice.event === "payment_received"
        ? templateContent("paymentReceived", [name, amount, notice.concept, clinic.shortName])
        : notice.event === "refund_issued"
          ? templateContent("refundIssued", [name, amount, notice.concept, clinic.shortName])
          : templateContent("feePending", [name, amount, notice.concept, link]);
    try {
      await enqueueWhatsApp(tx, {
        purpose: "payment-patient",
        to: patient.phone,
        text,
        template,
        userId: notice.patientId,
        idempotencyKey: key,
      });
      return;
    } catch (error) {
      if (!(error instanceof WhatsAppInputError)) throw error;
      logger.warn({ event: notice.event }, "payment notice: not a WhatsApp number, sent by e-mail instead");
    }
  }
  await enqueue(tx, {
    kind: "email",
    idempotencyKey: key,
    payload: {
      to: patient.email,
      subject: `${subjects[notice.event]} — ${clinic.shortName}`,
      text: `${text}\n\n${clinic.name}`,
      html: `<p>${escapeHtml(text)}</p><p>${escapeHtml(clinic.name)}</p>`,
    },
  });
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
