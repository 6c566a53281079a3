import { dentalinkErrorMessage } from "~/integrations/dentalink/dentalink-schemas";
import { isIntegrationError } from "~/integrations/http.server";

/** How a failed Dentalink call reads on a clinical record's page. */

export const RECORD_ERROR_FALLBACK = "Error al obtener datos del paciente";

/** What the patient sees of a failed Dentalink call: 'Error {status}: {body or status text}', else the fallback. */
export function upstreamMessage(error: unknown): string {
  if (isIntegrationError(error) && error.status !== null && error.status !== 200) {
    const detail = dentalinkErrorMessage(error.body) ?? statusText(error.status);
    return `Error ${error.status}: ${detail}`;
  }
  return RECORD_ERROR_FALLBACK;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
  };
  return texts[status] ?? "Error";
}
