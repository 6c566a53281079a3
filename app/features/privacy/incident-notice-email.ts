import type { ClinicFacts } from "~/config/clinic";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

/** The breach notice as an e-mail: the admin's reviewed text, paragraph by paragraph, and the clinic's signature. */
export function incidentNoticeEmail(
  clinic: Pick<ClinicFacts, "name" | "address">,
  subject: string,
  text: string,
): { subject: string; text: string; html: string } {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const html = `<!doctype html><html lang="es-CL"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`).join("\n")}
<p style="font-size:13px;color:#475569">${escapeHtml(clinic.name)} · ${escapeHtml(clinic.address)}</p>
</body></html>`;
  return { subject, text: `${text}\n\n${clinic.name}`, html };
}
