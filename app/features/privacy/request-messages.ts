import type { ClinicFacts } from "~/config/clinic";
import { formatDate } from "~/domain/format";
import type { PrivacyRight } from "~/domain/privacy";
import { COMPLAINT_BUSINESS_DAYS } from "~/domain/privacy-clock";
import { rightLabels } from "~/domain/privacy-requests";

/**
 * What the rights workflow tells the person (e-mail, or WhatsApp when only a phone is known). Pure: each function
 * answers a subject and paragraphs; `request-notifications.server.ts` lays them out and queues them.
 */

export interface PersonMessage {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}

/** The request's short reference, as the confirmation page showed it. */
export function requestReference(id: string): string {
  return id.slice(0, 8).toUpperCase();
}

/** Art. 11: a refusal, total or partial, tells the person where and within what term to complain. */
export const COMPLAINT_NOTICE = `Si no estás de acuerdo con esta respuesta, puedes reclamar ante la Agencia de Protección de Datos Personales dentro de ${COMPLAINT_BUSINESS_DAYS} días hábiles desde que la recibas (artículo 11 de la Ley N.º 19.628, modificada por la Ley N.º 21.719).`;

/** Art. 11: with no answer in time, the person may go to the Agency directly. */
export const SILENCE_NOTICE =
  "Si no te respondemos dentro de ese plazo, puedes reclamar directamente ante la Agencia de Protección de Datos Personales.";

interface About {
  id: string;
  right: PrivacyRight;
}

const title = (request: About) => `tu solicitud de ${rightLabels[request.right].toLowerCase()}`;

export function verificationLinkMessage(
  clinic: ClinicFacts,
  request: About,
  url: string,
  lifetime: string,
): PersonMessage {
  return {
    subject: `Confirma tu solicitud sobre tus datos · ${clinic.shortName}`,
    heading: "Confirma tu solicitud sobre tus datos personales",
    paragraphs: [
      `Recibimos ${title(request)} (N.º ${requestReference(request.id)}) con este e-mail. Para proteger tus datos, no la procesaremos hasta que confirmes que este e-mail es tuyo.`,
      `El enlace vence en ${lifetime} y sirve una sola vez. Si no hiciste esta solicitud, ignora este mensaje: no haremos nada.`,
    ],
    action: { label: "Confirmar mi solicitud", url },
  };
}

export function acknowledgmentMessage(
  clinic: ClinicFacts,
  request: About & { receivedDate: string; dueDate: string; blocking: boolean },
): PersonMessage {
  const paragraphs = [
    `Recibimos ${title(request)} (N.º ${requestReference(request.id)}) el ${formatDate(request.receivedDate)}.`,
    `Te responderemos a más tardar el ${formatDate(request.dueDate)}, dentro de los 30 días corridos que fija la ley. Si necesitamos más tiempo, te avisaremos antes, con el motivo.`,
  ];
  if (request.blocking) {
    paragraphs.push(
      "Como lo pediste, bloqueamos tus datos mientras decidimos: no los usaremos para nada más que conservarlos.",
    );
  }
  paragraphs.push(SILENCE_NOTICE);
  return {
    subject: `Recibimos tu solicitud N.º ${requestReference(request.id)} · ${clinic.shortName}`,
    heading: "Recibimos tu solicitud sobre tus datos personales",
    paragraphs,
  };
}

export function extensionMessage(
  clinic: ClinicFacts,
  request: About & { dueDate: string; reason: string },
): PersonMessage {
  return {
    subject: `Prórroga del plazo de tu solicitud N.º ${requestReference(request.id)} · ${clinic.shortName}`,
    heading: "Necesitamos más tiempo para responder tu solicitud",
    paragraphs: [
      `Prorrogamos por una única vez el plazo para responder ${title(request)} (N.º ${requestReference(request.id)}). Te responderemos a más tardar el ${formatDate(request.dueDate)}.`,
      `Motivo: ${request.reason}`,
      SILENCE_NOTICE,
    ],
  };
}

export interface RetainedData {
  label: string;
  rows: number;
  reason: string;
  until: string | null;
}

export function approvalMessage(
  clinic: ClinicFacts,
  request: About & { detail: string; retained?: RetainedData[]; exportBySelf?: boolean },
): PersonMessage {
  const paragraphs = [
    `Aprobamos ${title(request)} (N.º ${requestReference(request.id)}).`,
    ...approvalEffect(request.right, Boolean(request.exportBySelf)),
  ];
  if (request.detail) paragraphs.push(request.detail);
  if (request.retained && request.retained.length > 0) {
    paragraphs.push(
      "La ley nos obliga a conservar estos datos; quedan bloqueados (no los usamos para nada más) y los eliminaremos cuando termine el plazo:",
      ...request.retained.map(
        (item) =>
          `• ${item.label} (${item.rows} ${item.rows === 1 ? "registro" : "registros"}): ${item.reason}${item.until ? `. Se conservan hasta el ${formatDate(item.until)}` : ""}.`,
      ),
    );
  } else if (request.right === "supresion") {
    paragraphs.push("No conservamos ningún otro dato tuyo.");
  }
  return {
    subject: `Tu solicitud N.º ${requestReference(request.id)} fue aprobada · ${clinic.shortName}`,
    heading: "Respondimos tu solicitud sobre tus datos personales",
    paragraphs,
  };
}

function approvalEffect(right: PrivacyRight, exportBySelf: boolean): string[] {
  switch (right) {
    case "acceso":
    case "portabilidad":
      return [
        exportBySelf
          ? "Puedes descargar tus datos (un archivo ZIP con un JSON legible por máquina y un resumen en PDF) desde Mis Datos en el Portal de Pacientes."
          : "Te enviaremos tus datos en un formato estructurado y legible por máquina a este mismo contacto.",
      ];
    case "rectificacion":
      return ["Corregimos los datos que indicaste."];
    case "supresion":
      return [
        "Eliminamos o anonimizamos tus datos en todos los lugares donde la ley no nos obliga a conservarlos.",
      ];
    case "oposicion":
      return ["Dejamos de usar tus datos para publicidad y para calcular puntajes automáticos sobre ti."];
    case "decisiones_automatizadas":
      return ["Dejamos de evaluarte con puntajes automáticos: una persona revisará tus consultas."];
    case "bloqueo":
      return ["Bloqueamos tus datos: los conservamos, pero no los usamos para nada más."];
  }
}

export function partialApprovalMessage(
  clinic: ClinicFacts,
  request: About & { reason: string },
): PersonMessage {
  return {
    subject: `Respuesta a tu solicitud N.º ${requestReference(request.id)} · ${clinic.shortName}`,
    heading: "Aprobamos en parte tu solicitud sobre tus datos personales",
    paragraphs: [
      `Aprobamos en parte ${title(request)} (N.º ${requestReference(request.id)}).`,
      `Qué hicimos y por qué no el resto: ${request.reason}`,
      COMPLAINT_NOTICE,
    ],
  };
}

export function refusalMessage(clinic: ClinicFacts, request: About & { reason: string }): PersonMessage {
  return {
    subject: `Respuesta a tu solicitud N.º ${requestReference(request.id)} · ${clinic.shortName}`,
    heading: "No pudimos aprobar tu solicitud sobre tus datos personales",
    paragraphs: [
      `Rechazamos ${title(request)} (N.º ${requestReference(request.id)}).`,
      `Motivo: ${request.reason}`,
      COMPLAINT_NOTICE,
    ],
  };
}

/** The privacy contact's daily e-mail while any request is due within a few days. */
export function digestMessage(
  clinic: ClinicFacts,
  rows: Array<{ id: string; right: PrivacyRight; dueDate: string; label: string }>,
  url: string,
): PersonMessage {
  return {
    subject: `Solicitudes de datos por vencer (${rows.length}) · ${clinic.shortName}`,
    heading: "Solicitudes sobre datos personales por vencer",
    paragraphs: [
      `Hay ${rows.length} ${rows.length === 1 ? "solicitud que vence" : "solicitudes que vencen"} en los próximos días o ya ${rows.length === 1 ? "venció" : "vencieron"}. La ley da 30 días corridos para responder (prorrogables una vez):`,
      ...rows.map(
        (row) =>
          `• N.º ${requestReference(row.id)} · ${rightLabels[row.right]} · vence el ${formatDate(row.dueDate)} (${row.label})`,
      ),
    ],
    action: { label: "Abrir la cola de privacidad", url },
  };
}
