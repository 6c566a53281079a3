import { RUT_MAX_LENGTH, formatRut } from "~/domain/rut";
import { InputField, type InputFieldProps } from "./form-fields";

// Apart from the other fields so that pages without a RUT (the landing's lead form) do not ship its formatter.
/** A RUT, formatted as it is typed (digits and K only, thousands dots, dash before the check digit). */
export function RutField(props: InputFieldProps) {
  return (
    <InputField
      name="rut"
      autoComplete="off"
      placeholder="12.345.678-5"
      maxLength={RUT_MAX_LENGTH}
      onInput={(event) => {
        const input = event.currentTarget;
        input.value = formatRut(input.value);
      }}
      {...props}
    />
  );
}
