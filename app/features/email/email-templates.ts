import type { ClinicFacts } from "~/config/clinic";
import { EMAIL_VERIFICATION_LINK_LIFETIME, PASSWORD_RESET_LINK_LIFETIME } from "~/domain/account-links";
import { SIGN_IN_CODE_LIFETIME } from "~/domain/one-time-code";
import type { EmailContent } from "~/integrations/smtp/mailer.server";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

function layout(
  clinic: ClinicFacts,
  heading: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  extra?: { html: string; text: string },
) {
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(action.url)}</p>
`
    : "";
  const html = `<!doctype html><html lang="es-CL"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${button}${extra ? `${extra.html}\n` : ""}<p style="font-size:13px;color:#475569">${escapeHtml(clinic.name)} · ${escapeHtml(clinic.address)}</p>
</body></html>`;
  const link = action ? [`${action.label}: ${action.url}`, ""] : [];
  const more = extra ? [extra.text, ""] : [];
  const text = [heading, "", ...paragraphs, "", ...link, ...more, clinic.name].join("\n");
  return { html, text };
}

export function verificationEmail(clinic: ClinicFacts, firstName: string, url: string): EmailContent {
  const heading = `Hola ${firstName}, confirma tu correo`;
  return {
    subject: `Confirma tu correo · ${clinic.shortName}`,
    ...layout(
      clinic,
      heading,
      [
        "Gracias por registrarte en el Portal de Pacientes. Confirma tu correo para proteger tu cuenta y acceder a tus documentos clínicos.",
        `El enlace vence en ${EMAIL_VERIFICATION_LINK_LIFETIME}. Si no creaste esta cuenta, ignora este mensaje.`,
      ],
      { label: "Confirmar mi correo", url },
    ),
  };
}

export function passwordResetEmail(clinic: ClinicFacts, firstName: string, url: string): EmailContent {
  const heading = `Hola ${firstName}, restablece tu contraseña`;
  return {
    subject: `Restablece tu contraseña · ${clinic.shortName}`,
    ...layout(
      clinic,
      heading,
      [
        "Recibimos una solicitud para cambiar la contraseña de tu cuenta del Portal de Pacientes.",
        `El enlace vence en ${PASSWORD_RESET_LINK_LIFETIME}. Al cambiarla se cerrarán todas tus otras sesiones. Si no fuiste tú, ignora este mensaje: tu contraseña no cambiará.`,
      ],
      { label: "Elegir una nueva contraseña", url },
    ),
  };
}

/** The sign-in step-up's code (ADR 031): sent only after the right password, while the account is under attack. */
export function signInCodeEmail(clinic: ClinicFacts, firstName: string, code: string): EmailContent {
  return {
    subject: `Tu código para ingresar · ${clinic.shortName}`,
    ...layout(clinic, `Hola ${firstName}, este es tu código para ingresar`, [
      `Tu código es ${code}. Ingrésalo en la pantalla de inicio de sesión para terminar de ingresar al Portal de Pacientes.`,
      `Te lo pedimos porque hubo muchos intentos fallidos de ingresar a tu cuenta. Vence en ${SIGN_IN_CODE_LIFETIME} y sirve una sola vez. No lo compartas con nadie: la clínica nunca te lo pedirá.`,
      "Si no intentaste ingresar, alguien conoce tu contraseña: cámbiala cuanto antes desde «¿Olvidaste tu contraseña?».",
    ]),
  };
}

/** Told once per lockout window: many failed passwords on the account (ADR 031). */
export function failedSignInAlertEmail(
  clinic: ClinicFacts,
  firstName: string,
  resetUrl: string,
): EmailContent {
  return {
    subject: `Intentos fallidos en tu cuenta · ${clinic.shortName}`,
    ...layout(
      clinic,
      `Hola ${firstName}, hubo intentos fallidos en tu cuenta`,
      [
        "Detectamos muchos intentos de ingresar a tu cuenta del Portal de Pacientes con una contraseña incorrecta, desde distintas conexiones.",
        "Tu cuenta sigue protegida: durante la próxima hora, para ingresar con tu contraseña te pediremos también un código que enviaremos a este correo.",
        "Si no fuiste tú, te recomendamos cambiar tu contraseña. Si fuiste tú, no necesitas hacer nada.",
      ],
      { label: "Cambiar mi contraseña", url: resetUrl },
    ),
  };
}

/** What a booking confirmation says (issue 23): the appointment and 'Agregar al calendario'. */
export interface BookingEmailFacts {
  firstName: string;
  rescheduled: boolean;
  treatment: string;
  dentist: string;
  /** "jueves, 15 de enero de 2026". */
  dateLabel: string;
  /** "09:30". */
  time: string;
  manageUrl: string;
  /** Absent when the appointment is not (yet) scheduled or confirmed. */
  calendar: { icsUrl: string; googleUrl: string; outlookUrl: string } | null;
  /** The forms to fill before the visit (health history, consent), when the booking asks for any. */
  forms?: { count: number; url: string } | null;
}

/** The booking (or reschedule) confirmation, with the .ics download and the Google and Outlook links. */
export function bookingConfirmationEmail(clinic: ClinicFacts, facts: BookingEmailFacts): EmailContent {
  const heading = facts.rescheduled
    ? `Hola ${facts.firstName}, tu cita fue reprogramada`
    : `Hola ${facts.firstName}, tu cita quedó agendada`;
  const details = `${facts.treatment} con ${facts.dentist}, el ${facts.dateLabel} a las ${facts.time}, en ${clinic.address}.`;
  const paragraphs = [
    details,
    `Puedes confirmarla, reprogramarla o cancelarla en Mis Citas: ${facts.manageUrl}`,
    ...(facts.forms
      ? [
          `Antes de tu cita, completa ${facts.forms.count === 1 ? "tu formulario" : `tus ${facts.forms.count} formularios`} (antecedentes de salud o consentimiento informado): ${facts.forms.url}`,
        ]
      : []),
  ];
  const subject = `${facts.rescheduled ? "Tu cita fue reprogramada" : "Tu cita quedó agendada"} · ${clinic.shortName}`;
  if (!facts.calendar) return { subject, ...layout(clinic, heading, paragraphs) };
  const links = [
    { label: "Descargar el archivo .ics (Apple, Android y otros calendarios)", url: facts.calendar.icsUrl },
    { label: "Google Calendar", url: facts.calendar.googleUrl },
    { label: "Outlook", url: facts.calendar.outlookUrl },
  ];
  const extra = {
    html: `<h2 style="font-size:16px">Agregar al calendario</h2>
<ul>${links.map((link) => `<li><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></li>`).join("")}</ul>`,
    text: ["Agregar al calendario:", ...links.map((link) => `- ${link.label}: ${link.url}`)].join("\n"),
  };
  return { subject, ...layout(clinic, heading, paragraphs, undefined, extra) };
}
