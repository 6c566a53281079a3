/**
 * A request URL as the logs may keep it: a reminder link's single-use token (`/cita/confirmar/<token>`) and a
 * `token` or `code` query value are secrets of a message (ADR 029), replaced by "[oculto]".
 */
export function loggableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "[URL no válida]";
  }
  parsed.pathname = parsed.pathname.replace(/^\/cita\/([^/]+)\/[^/]+/, "/cita/$1/[oculto]");
  for (const name of ["token", "code"]) {
    if (parsed.searchParams.has(name)) parsed.searchParams.set(name, "[oculto]");
  }
  return decodeURI(parsed.toString());
}
