import { z } from "zod";
import { passwordMeetsRule } from "~/domain/password-rule";
import { emailAddress } from "~/lib/validation";

/** /auth/recuperar: the account's e-mail. */
export const forgotPasswordSchema = z.object({ email: emailAddress });

const RULE = "La contraseña debe tener al menos 8 caracteres e incluir letras y números.";

/** /auth/restablecer: the link's token and the new password, twice. */
export const resetPasswordSchema = z
  .object({
    token: z.string().min(10, "El enlace no es válido.").max(200),
    password: z.string().refine(passwordMeetsRule, RULE),
    confirm: z.string(),
  })
  .refine((value) => value.password === value.confirm, {
    path: ["confirm"],
    message: "Las contraseñas no coinciden.",
  });
