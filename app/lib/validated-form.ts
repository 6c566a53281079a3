import { useRef, useState } from "react";
import type { z } from "zod";
import type { AnyActionResult, FieldErrors } from "./base/action-result";

type FormSchema = z.ZodType<Record<string, unknown>>;

const NO_ERRORS: FieldErrors = {};

function errorsOf(result: AnyActionResult | undefined): FieldErrors {
  return result && !result.ok ? (result.fieldErrors ?? NO_ERRORS) : NO_ERRORS;
}

/**
 * A form checked in the browser with the schema its action uses (ADR 013). The schema (and zod with it) is loaded
 * on the form's first focus, not with the page, so public pages keep their JavaScript budget (≤ 130 KiB gzip). The
 * browser reads the form as the action's `readForm` does, so the same schema gives the same Spanish messages.
 * Until the schema is here, before hydration or without JavaScript, the form posts as usual and the action's
 * answer (`result`) puts its messages beside the same fields. After a first check, every edit checks again.
 */
export function useValidatedForm(
  loadSchema: () => Promise<FormSchema>,
  result: AnyActionResult | undefined,
  events: {
    /** Runs first on every submit (e.g. the submission id). */
    onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
    /** The browser's check refused the form, so nothing was sent. */
    onInvalid?: () => void;
  } = {},
) {
  const checker = useRef<((form: HTMLFormElement) => FieldErrors) | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  const [errors, setErrors] = useState(() => errorsOf(result));
  const [seen, setSeen] = useState(result);

  // A new answer from the action replaces what the browser found (adjusting state while rendering).
  if (result !== seen) {
    setSeen(result);
    setErrors(errorsOf(result));
  }

  function load(event: React.FocusEvent<HTMLFormElement>) {
    // From the first use on, our Spanish check replaces the browser's (which runs before hydration and without
    // JavaScript, as it always did).
    event.currentTarget.noValidate = true;
    // The check (zod with it) comes with the schema, so neither weighs on the page's first load.
    loading.current ??= Promise.all([loadSchema(), import("./form-check")]).then(
      ([schema, { checkForm }]) => {
        checker.current = (form) => checkForm(schema, form) ?? NO_ERRORS;
      },
      () => {
        // Offline or a stale deployment: the action still validates; try again on the next focus.
        loading.current = null;
      },
    );
  }

  const check = (form: HTMLFormElement) => checker.current?.(form) ?? null;

  return {
    formProps: {
      onFocus: load,
      // Once a check found errors, every edit checks again, so a fixed field loses its message.
      onInput(event: React.FormEvent<HTMLFormElement>) {
        if (errors === NO_ERRORS) return;
        const found = check(event.currentTarget);
        if (found) setErrors(found);
      },
      onSubmit(event: React.FormEvent<HTMLFormElement>) {
        const form = event.currentTarget;
        if (!checker.current && loading.current) {
          // The schema is on its way (the first focus was the submit button): check once it is here.
          event.preventDefault();
          const submitter = (event.nativeEvent as SubmitEvent).submitter;
          void loading.current.then(() => form.requestSubmit(submitter));
          return;
        }
        events.onSubmit?.(event);
        const found = check(form);
        if (!found) return;
        setErrors(found);
        if (found === NO_ERRORS) return;
        event.preventDefault();
        events.onInvalid?.();
      },
    },
    /** The first message for `name`, from the browser's check or the action's answer. */
    error: (name: string): string | undefined => errors[name]?.[0],
    /** Every field's messages (plain data: what a prepared form renders from, ADR 055). */
    errors,
    hasErrors: Object.keys(errors).length > 0,
  };
}
