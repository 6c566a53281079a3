import { z } from "zod";
import { passwordMeetsRule } from "~/domain/password-rule";
import type { ActionResult } from "~/lib/base/action-result";

const RULE = "La nueva contraseña debe tener al menos 8 caracteres e incluir letras y números.";
const password = z.string().min(1, "Ingresa tu contraseña actual.").max(128);

/** The forms of /cuenta/seguridad, told apart by `intent`. */
export const securityActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("enable"), password }),
  z.object({
    intent: z.literal("confirm"),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "Ingresa los 6 dígitos del código."),
  }),
  z.object({ intent: z.literal("disable"), password }),
  z.object({ intent: z.literal("backup-codes"), password }),
  z
    .object({
      intent: z.literal("change-password"),
      currentPassword: password,
      newPassword: z.string().refine(passwordMeetsRule, RULE),
      confirm: z.string(),
    })
    .refine((value) => value.newPassword === value.confirm, {
      path: ["confirm"],
      message: "Las contraseñas no coinciden.",
    }),
]);

/** What a security form brought back to show: the enrolment, fresh backup codes or what changed. */
export type SecurityResultData =
  | { kind: "enrol"; qrSvg: string; secret: string; backupCodes: string[] }
  | { kind: "enabled" | "disabled" | "password-changed" }
  | { kind: "backup-codes"; backupCodes: string[] };

export type SecurityActionData = ActionResult<SecurityResultData>;
