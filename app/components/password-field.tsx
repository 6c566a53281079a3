import { InputField, type InputFieldProps } from "./form-fields";
/** A password box: the rule's 128-character ceiling; `autoComplete` tells managers whether it is new or current. */
export function PasswordField(
  props: InputFieldProps & { autoComplete: "new-password" | "current-password" },
) {
  return <InputField type="password" required maxLength={128} {...props} />;
}
