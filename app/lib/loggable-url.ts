/**
 * A request URL as the logs may keep it: the single-use token of a reminder link (`/cita/confirmar/<token>`, ADR 029)
 * or of a rights request's confirmation link (`/eliminar-datos/confirmar/<token>`, ADR 037) or of a waitlist offer
 * (`/lista-de-espera/oferta/<token>`, ADR 040), and a `token`, `code` or `sala` (a chat room link, ADR 043) query
 * value, are secrets of a message, replaced by "[oculto]".
 */
export function loggableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "[URL no válida]";
  }
  parsed.pathname = parsed.pathname
    .replace(/^\/cita\/([^/]+)\/[^/]+/, "/cita/$1/[oculto]")
    .replace(/^\/eliminar-datos\/confirmar\/[^/]+/, "/eliminar-datos/confirmar/[oculto]")
    .replace(/^\/lista-de-espera\/oferta\/[^/]+/, "/lista-de-espera/oferta/[oculto]");
  for (const name of ["token", "code", "sala"]) {
    if (parsed.searchParams.has(name)) parsed.searchParams.set(name, "[oculto]");
  }
  return decodeURI(parsed.toString());
}
