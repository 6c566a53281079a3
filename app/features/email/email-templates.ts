import type { ClinicFacts } from "~/config/clinic";
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
  action: { label: string; url: string },
) {
  const html = `<!doctype html><html lang="es-CL"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(action.url)}</p>
<p style="font-size:13px;color:#475569">${escapeHtml(clinic.name)} · ${escapeHtml(clinic.address)}</p>
</body></html>`;
  const text = [heading, "", ...paragraphs, "", `${action.label}: ${action.url}`, "", clinic.name].join("\n");
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
        "El enlace vence en 24 horas. Si no creaste esta cuenta, ignora este mensaje.",
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
        "El enlace vence en 1 hora. Al cambiarla se cerrarán todas tus otras sesiones. Si no fuiste tú, ignora este mensaje: tu contraseña no cambiará.",
      ],
      { label: "Elegir una nueva contraseña", url },
    ),
  };
}
