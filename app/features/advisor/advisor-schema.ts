import { z } from "zod";
import type { ActionResult } from "~/lib/base/action-result";
import { ADVISOR_MAX_MESSAGE_LENGTH, type AdvisorReplyType } from "~/domain/advisor-replies";

export const ADVISOR_EMPTY_ERROR = "Escribe tu consulta antes de enviarla.";
export const ADVISOR_TOO_LONG_ERROR = `Tu mensaje puede tener hasta ${ADVISOR_MAX_MESSAGE_LENGTH.toLocaleString("es-CL")} caracteres.`;
export const ADVISOR_RATE_LIMITED_ERROR =
  "Estás enviando mensajes muy rápido. Espera un momento e intenta nuevamente.";

// Control characters other than tab and newline (PostgreSQL text refuses NUL; the rest only hide content).
const CONTROL_CHARACTERS = /(?![\t\n])\p{Cc}/gu;

/**
 * One message typed into the advisor: browsers send a textarea's line breaks as CRLF, so they
 * are normalised before the length is checked; blank after trimming is refused.
 */
export const advisorMessageSchema = z.object({
  content: z
    .string({ error: ADVISOR_EMPTY_ERROR })
    .transform((value) => value.replace(/\r\n?/g, "\n").replace(CONTROL_CHARACTERS, "").trim())
    .pipe(z.string().min(1, ADVISOR_EMPTY_ERROR).max(ADVISOR_MAX_MESSAGE_LENGTH, ADVISOR_TOO_LONG_ERROR)),
});

export type AdvisorRole = "user" | "assistant";

/** A chat bubble as the page receives it (a DTO, not the row); `time` is HH:mm on the clinic's clock. */
export interface AdvisorMessageDto {
  id: string;
  role: AdvisorRole;
  content: string;
  type: AdvisorReplyType;
  time: string;
}

/** A failure with code INTERNAL is the spec's failure message in the chat; the others are refusals (too long, too fast). */
export type AdvisorActionData = ActionResult<{ messages: AdvisorMessageDto[] }>;
