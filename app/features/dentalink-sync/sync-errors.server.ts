import { isIntegrationError } from "~/integrations/http.server";
import {
  SYNC_CONNECTION_ERROR,
  SYNC_DUPLICATE_ERROR,
  SYNC_FAILURE_MESSAGE,
  SYNC_SYSTEM_ERROR,
  SYNC_UNEXPECTED_MESSAGE,
} from "./sync-options";

export interface SyncFailure {
  message: string;
  errors: string[];
  /** For the sync row and the logs: the vendor's code and status, never personal data. */
  detail: string;
}

/** Codes of a duplicate: the slot is taken (409 on POST /citas) or Dentalink refused a patient as existing. */
const DUPLICATE_CODES = new Set(["SLOT_TAKEN", "DUPLICATE_PATIENT", "CONFLICT"]);

/**
 * A failed sync in the product's words: 'Error al sincronizar con Dentalink' with 'Error de conexión'
 * when Dentalink could not be reached (network, timeout, 429, 5xx, the circuit open) or 'Datos duplicados' for a
 * duplicate or a taken slot; anything else — a refusal we did not expect (401, 400), an answer we cannot read, a
 * bug — is 'Error inesperado al procesar la solicitud' with 'Error de sistema'.
 */
export function classifySyncError(error: unknown): SyncFailure {
  if (isIntegrationError(error)) {
    const detail = `${error.code ?? "HTTP"} ${error.status ?? "-"}: ${error.message}`.slice(0, 500);
    if (DUPLICATE_CODES.has(error.code ?? "") || error.status === 409) {
      return { message: SYNC_FAILURE_MESSAGE, errors: [SYNC_DUPLICATE_ERROR], detail };
    }
    if (error.code === "CIRCUIT_OPEN" || error.retryable) {
      return { message: SYNC_FAILURE_MESSAGE, errors: [SYNC_CONNECTION_ERROR], detail };
    }
    return { message: SYNC_UNEXPECTED_MESSAGE, errors: [SYNC_SYSTEM_ERROR], detail };
  }
  const detail = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
  return { message: SYNC_UNEXPECTED_MESSAGE, errors: [SYNC_SYSTEM_ERROR], detail };
}
