import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { RECORD_CODE_EXPIRY_NOTICE } from "~/domain/record-code";
import { formatRut } from "~/domain/rut";
import { templateContent, whatsAppTemplates } from "~/domain/whatsapp-templates";
import { enqueueSecretEmail } from "~/features/email/email-outbox.server";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { enqueue } from "~/features/outbox/outbox.server";
import { clinicFacts } from "~/lib/base/env.server";

/**
 * WhatsApp only allows business-initiated messages as approved templates (ADR 020, the 24-hour rule), so the
 * code goes as the authentication template `codigo_acceso_ficha` (es) with the code as its one placeholder.
 */
export const RECORD_CODE_TEMPLATE = whatsAppTemplates.clinicalRecordCode.name;

/** Queues the one-time code to the contact on file, in the caller's transaction. */
export async function queueRecordCode(
  tx: Database,
  input: {
    channel: "whatsapp" | "email";
    phone: string | null;
    email: string | null;
    code: string;
    userId: string;
  },
): Promise<void> {
  const clinic = clinicFacts();
  if (input.channel === "whatsapp" && input.phone) {
    await enqueueWhatsApp(tx, {
      purpose: "clinical-record-code",
      to: input.phone,
      template: templateContent("clinicalRecordCode", [input.code]),
      userId: input.userId,
    });
    return;
  }
  if (!input.email) return;
  const text = [
    "Código de acceso a tu ficha clínica",
    "",
    `Tu código para ver tu ficha clínica en el Portal de Pacientes es ${input.code}.`,
    RECORD_CODE_EXPIRY_NOTICE,
    "Si no lo solicitaste, ignora este mensaje y avísanos.",
    "",
    clinic.name,
  ].join("\n");
  const html = `<!doctype html><html lang="es-CL"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px">Código de acceso a tu ficha clínica</h1>
<p>Tu código para ver tu ficha clínica en el Portal de Pacientes es:</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${input.code}</p>
<p>${RECORD_CODE_EXPIRY_NOTICE}</p>
<p style="font-size:13px;color:#475569">Si no lo solicitaste, ignora este mensaje y avísanos.</p>
</body></html>`;
  await enqueueSecretEmail(tx, {
    idempotencyKey: `record-code:${input.userId}:${randomUUID()}`,
    to: input.email,
    content: { subject: `Tu código de acceso · ${clinic.shortName}`, text, html },
  });
}

/**
 * Tells the clinic that many code requests were made for one RUT within the hour (someone may be trying to bind
 * another person's record, or to flood their phone). Known RUT or not: the requester never sees this.
 */
export async function queueCodeRequestsAlert(
  tx: Database,
  input: { rut: string; requests: number; accounts: string[]; at: Date },
): Promise<void> {
  const clinic = clinicFacts();
  const rut = formatRut(input.rut);
  const text = [
    "Solicitudes repetidas de código para un RUT",
    "",
    `El RUT ${rut} recibió ${input.requests} solicitudes de código de acceso a la ficha clínica en la última hora, desde estas cuentas del portal:`,
    ...input.accounts.map((email) => `- ${email}`),
    "",
    "Cada cuenta tiene su propio límite, así que el paciente puede seguir pidiendo su código. Si no reconoces estas cuentas, revisa el registro de accesos de ese RUT en /admin/auditoria y contacta al paciente.",
  ].join("\n");
  await enqueue(tx, {
    kind: "email",
    idempotencyKey: `record-code-alert:${input.rut}:${input.at.getTime()}`,
    payload: {
      to: clinic.adminEmail,
      subject: `Solicitudes repetidas de código para el RUT ${rut} · ${clinic.shortName}`,
      text,
      html: preformatted(text),
    },
  });
}

function preformatted(text: string): string {
  const escaped = text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
  return `<!doctype html><html lang="es-CL"><body><pre style="font-family:Arial,sans-serif">${escaped}</pre></body></html>`;
}

/** Tells the clinic that a second account proved it holds the contact of a record already bound to another. */
export async function queueBindingConflictNotice(
  tx: Database,
  input: { rut: string; userEmail: string; at: Date },
): Promise<void> {
  const clinic = clinicFacts();
  const text = [
    "Intento de vincular una ficha clínica ya vinculada",
    "",
    `La cuenta ${input.userEmail} ingresó el código correcto para la ficha del RUT ${formatRut(input.rut)}, que ya está vinculada a otra cuenta del portal.`,
    "No se vinculó. Contacta al paciente para confirmar cuál cuenta es la suya.",
  ].join("\n");
  await enqueue(tx, {
    kind: "email",
    idempotencyKey: `record-conflict:${input.rut}:${input.userEmail}:${input.at.getTime()}`,
    payload: {
      to: clinic.adminEmail,
      subject: `Ficha clínica ya vinculada · ${clinic.shortName}`,
      text,
      html: preformatted(text),
    },
  });
}
