import { z } from "zod";
import { optionalChileanPhoneField } from "~/lib/validation";
import { normaliseOneTimeCode } from "~/domain/one-time-code";
import { passwordMeetsRule } from "~/domain/password-rule";
import type { AuthTextKey } from "~/i18n/auth-messages";

type Texts = Record<AuthTextKey, string>;

const email = (t: Texts) =>
  z
    .string({ error: t.required })
    .trim()
    .toLowerCase()
    .min(1, t.required)
    .max(254, t.invalidEmail)
    .pipe(z.email(t.invalidEmail));

export function signInSchema(t: Texts) {
  return z.object({
    email: email(t),
    password: z.string({ error: t.required }).min(1, t.required).max(128, t.invalidCredentials),
    redirectTo: z.string().max(2048).optional(),
  });
}

export function signUpSchema(t: Texts) {
  return z.object({
    firstName: z.string({ error: t.required }).trim().min(1, t.required).max(80),
    lastName: z.string({ error: t.required }).trim().min(1, t.required).max(80),
    email: email(t),
    password: z.string({ error: t.required }).refine(passwordMeetsRule, t.passwordTooShort),
    phone: optionalChileanPhoneField(t.invalidPhone).default(null),
    redirectTo: z.string().max(2048).optional(),
  });
}

export function twoFactorSchema(t: Texts) {
  return z.object({
    code: z
      .string({ error: t.required })
      .trim()
      .regex(/^[0-9A-Za-z-]{6,20}$/, t.invalidCode),
    useBackupCode: z.literal("on").optional(),
    redirectTo: z.string().max(2048).optional(),
  });
}

/** The sign-in step-up's e-mailed code (6 digits, spaces and dashes allowed as typed). */
export function stepUpSchema(t: Texts) {
  return z.object({
    code: z
      .string({ error: t.stepUpCodeFormat })
      .max(20, t.stepUpCodeFormat)
      .transform((value, ctx) => {
        const code = normaliseOneTimeCode(value);
        if (code === null) {
          ctx.addIssue({ code: "custom", message: t.stepUpCodeFormat });
          return z.NEVER;
        }
        return code;
      }),
    redirectTo: z.string().max(2048).optional(),
  });
}
