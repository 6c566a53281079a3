import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import type { z } from "zod";
import type { AnyActionResult } from "./action-result";

/**
 * A form checked in the browser with the schema its action uses (ADR 013, Conform). Before hydration, or without
 * JavaScript, the form posts as usual and the action's answer (`result`) carries the same Spanish messages, which
 * Conform then shows beside the same fields. Auto-coercion is off so the browser sees the strings the server's
 * `readForm` sees: the same schema gives the same messages on both sides.
 */
export function useValidatedForm<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  result: AnyActionResult | undefined,
  events: {
    /** Runs first on every submit (e.g. the submission id). */
    onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
    /** The browser's check refused the form, so nothing was sent. */
    onInvalid?: () => void;
  } = {},
) {
  const lastResult = useMemo<SubmissionResult<string[]> | undefined>(() => {
    if (!result) return undefined;
    return result.ok ? { status: "success" } : { status: "error", error: result.fieldErrors ?? {} };
  }, [result]);
  const [form] = useForm<Record<string, unknown>>({
    lastResult,
    // Before hydration the browser's own checks (required, type=email) still run, as they did without Conform.
    defaultNoValidate: false,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
  });
  const { id, noValidate, onSubmit: validate } = getFormProps(form);
  return {
    formProps: {
      id,
      noValidate,
      onSubmit(event: React.FormEvent<HTMLFormElement>) {
        events.onSubmit?.(event);
        validate(event);
        if (event.defaultPrevented) events.onInvalid?.();
      },
    },
    /** The first message for `name`, from the browser's check or the action's answer. */
    error: (name: string): string | undefined => form.allErrors[name]?.[0],
    hasErrors: Object.keys(form.allErrors).length > 0,
  };
}
