import { z } from "zod";
import { formKinds } from "./forms";
import { formatChileanPhone, parseChileanPhone } from "./format";
import { containsNul } from "./nul-character";
import { validateRut } from "./rut";

/**
 * Intake and consent forms (issue 23, DESIGN decision 23, ADR 041): the definition format, which questions a set of
 * answers makes visible, and the validator of the answers built from a definition. One module for the browser (the
 * renderer validates before posting) and the server (the action validates again and stores what this returns), so
 * both give the same Spanish messages. Pure.
 */

const questionId = z.string().regex(/^[a-z][a-z0-9_]{0,47}$/, "question ids are lower-case words");

/** "Show when question X's answer is Sí": X must come earlier in the form, so conditions cannot loop. */
const condition = z.object({ question: questionId, equals: z.string().min(1) }).strict();

const base = {
  id: questionId,
  label: z.string().min(1).max(400),
  help: z.string().max(600).optional(),
  required: z.boolean().default(false),
  showWhen: condition.optional(),
};

const textQuestion = z
  .object({
    ...base,
    type: z.literal("text"),
    multiline: z.boolean().default(false),
    maxLength: z.number().int().min(1).max(2000).default(500),
    /** Validated and normalised as a Chilean RUT (domain/rut.ts) or phone (E.164). */
    format: z.enum(["rut", "phone"]).optional(),
    autoComplete: z.string().max(40).optional(),
  })
  .strict();

const yesNoQuestion = z
  .object({
    ...base,
    type: z.literal("yes_no"),
    /** An acknowledgement that only "si" answers (e.g. "He leído y comprendido…"). */
    mustBeYes: z.boolean().default(false),
  })
  .strict();

const choiceQuestion = z
  .object({
    ...base,
    type: z.literal("choice"),
    options: z
      .array(
        z
          .object({ value: z.string().regex(/^[a-z0-9_]{1,40}$/), label: z.string().min(1).max(200) })
          .strict(),
      )
      .min(2),
  })
  .strict();

const dateQuestion = z.object({ ...base, type: z.literal("date") }).strict();

const signatureQuestion = z.object({ ...base, type: z.literal("signature") }).strict();

export const formQuestionSchema = z.discriminatedUnion("type", [
  textQuestion,
  yesNoQuestion,
  choiceQuestion,
  dateQuestion,
  signatureQuestion,
]);
export type FormQuestion = z.infer<typeof formQuestionSchema>;
export type FormQuestionType = FormQuestion["type"];

export const formSectionSchema = z
  .object({
    id: questionId,
    title: z.string().min(1).max(200),
    /** Text the patient reads (a consent's explanation), shown before the section's questions and in the PDF. */
    paragraphs: z.array(z.string().min(1).max(3000)).default([]),
    questions: z.array(formQuestionSchema).default([]),
  })
  .strict();
export type FormSection = z.infer<typeof formSectionSchema>;

/** A form as stored in form_definitions (slug and version are the row's identity; a change is a new version). */
export const formDefinitionSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9-]{2,60}$/),
    version: z.number().int().min(1),
    kind: z.enum(formKinds),
    title: z.string().min(1).max(200),
    intro: z.string().max(2000).optional(),
    /** The treatments a consent form is for; empty for the health history (every first visit). */
    treatmentSlugs: z.array(z.string().min(1)).default([]),
    sections: z.array(formSectionSchema).min(1),
  })
  .strict()
  .superRefine((definition, ctx) => {
    const seen = new Map<string, FormQuestion>();
    for (const section of definition.sections) {
      for (const question of section.questions) {
        if (seen.has(question.id)) {
          ctx.addIssue({ code: "custom", message: `duplicate question id ${question.id}` });
        }
        if (question.showWhen) {
          const target = seen.get(question.showWhen.question);
          if (!target) {
            ctx.addIssue({
              code: "custom",
              message: `${question.id} depends on ${question.showWhen.question}, which is not an earlier question`,
            });
          } else if (!conditionValues(target).includes(question.showWhen.equals)) {
            ctx.addIssue({
              code: "custom",
              message: `${question.id} waits for an answer ${question.showWhen.equals} that ${target.id} cannot give`,
            });
          }
        }
        seen.set(question.id, question);
      }
    }
  });
export type FormDefinition = z.infer<typeof formDefinitionSchema>;
export type FormDefinitionInput = z.input<typeof formDefinitionSchema>;

function conditionValues(question: FormQuestion): string[] {
  if (question.type === "yes_no") return [YES, NO];
  if (question.type === "choice") return question.options.map((option) => option.value);
  return [];
}

export const YES = "si";
export const NO = "no";

/** Answers as the form posts them: one string per question id. */
export type FormAnswers = Record<string, string>;

export function allQuestions(definition: FormDefinition): FormQuestion[] {
  return definition.sections.flatMap((section) => section.questions);
}

/**
 * The ids of the questions shown for these answers: a question with a condition is shown only when the question it
 * depends on is itself shown and answered with the expected value (a hidden "¿Toma medicamentos?" hides "¿Cuáles?").
 */
export function visibleQuestionIds(definition: FormDefinition, answers: Readonly<FormAnswers>): Set<string> {
  const visible = new Set<string>();
  for (const question of allQuestions(definition)) {
    const rule = question.showWhen;
    if (!rule || (visible.has(rule.question) && answers[rule.question] === rule.equals))
      visible.add(question.id);
  }
  return visible;
}

export const FORM_MESSAGES = {
  required: "Responde esta pregunta.",
  choice: "Elige una de las opciones.",
  mustBeYes: "Debes aceptar para continuar.",
  date: "Ingresa una fecha válida (día, mes y año).",
  tooLong: (max: number) => `Usa como máximo ${max} caracteres.`,
  phone: "Ingresa un teléfono chileno válido, por ejemplo +56 9 1234 5678.",
  signature: "Firma en el recuadro con el dedo o el mouse.",
  invalid: "El texto contiene un carácter no válido.",
} as const;

/** A drawn signature as the pad exports it: a PNG data URL of at most ~150 KB (the server takes 256 KiB bodies). */
const SIGNATURE_PREFIX = "data:image/png;base64,";
export const SIGNATURE_MAX_CHARS = 200_000;

/** The PNG bytes of a signature answer, or null when it is not one. */
export function signaturePngBytes(value: string): Uint8Array | null {
  if (!value.startsWith(SIGNATURE_PREFIX) || value.length > SIGNATURE_MAX_CHARS) return null;
  const base64 = value.slice(SIGNATURE_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  // An empty pad still exports a PNG; the renderer refuses an empty pad, and anything this small holds no stroke.
  if (bytes.length < 200 || png.some((byte, index) => bytes[index] !== byte)) return null;
  return bytes;
}

function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 &&
    year <= 2100 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/** One answer checked against its question: the stored (normalised) value, or the Spanish message. */
export function checkAnswer(
  question: FormQuestion,
  raw: string,
): { ok: true; value: string } | { ok: false; message: string } {
  if (containsNul(raw)) return { ok: false, message: FORM_MESSAGES.invalid };
  const value = question.type === "signature" ? raw : raw.trim();
  switch (question.type) {
    case "text": {
      if (value.length > question.maxLength)
        return { ok: false, message: FORM_MESSAGES.tooLong(question.maxLength) };
      if (question.format === "rut") {
        const rut = validateRut(value);
        return rut.ok ? { ok: true, value: rut.formatted } : { ok: false, message: rut.message };
      }
      if (question.format === "phone") {
        const phone = parseChileanPhone(value);
        return phone ? { ok: true, value: phone } : { ok: false, message: FORM_MESSAGES.phone };
      }
      return { ok: true, value };
    }
    case "yes_no":
      if (value !== YES && value !== NO) return { ok: false, message: FORM_MESSAGES.choice };
      if (question.mustBeYes && value !== YES) return { ok: false, message: FORM_MESSAGES.mustBeYes };
      return { ok: true, value };
    case "choice":
      return question.options.some((option) => option.value === value)
        ? { ok: true, value }
        : { ok: false, message: FORM_MESSAGES.choice };
    case "date":
      return isRealDate(value) ? { ok: true, value } : { ok: false, message: FORM_MESSAGES.date };
    case "signature":
      return signaturePngBytes(value) ? { ok: true, value } : { ok: false, message: FORM_MESSAGES.signature };
  }
}

function blank(question: FormQuestion, raw: unknown): boolean {
  return typeof raw !== "string" || (question.type === "signature" ? raw === "" : raw.trim() === "");
}

/**
 * The validator of a submission's answers, built from the definition: every visible question is checked (and, when
 * required, must be answered; a signature question always is); hidden questions and unknown keys are dropped, so
 * what a condition hid is never stored. The output is the answers to keep, normalised (RUT formatted, phone E.164).
 */
export function answersSchema(definition: FormDefinition) {
  const questions = allQuestions(definition);
  return z.record(z.string(), z.unknown()).transform((input, ctx) => {
    const strings: FormAnswers = {};
    for (const [key, value] of Object.entries(input)) if (typeof value === "string") strings[key] = value;
    const visible = visibleQuestionIds(definition, strings);
    const kept: FormAnswers = {};
    for (const question of questions) {
      if (!visible.has(question.id)) continue;
      const raw = input[question.id];
      if (blank(question, raw)) {
        if (question.required || question.type === "signature") {
          ctx.addIssue({
            code: "custom",
            path: [question.id],
            message: question.type === "signature" ? FORM_MESSAGES.signature : FORM_MESSAGES.required,
          });
        }
        continue;
      }
      const checked = checkAnswer(question, raw as string);
      if (checked.ok) kept[question.id] = checked.value;
      else ctx.addIssue({ code: "custom", path: [question.id], message: checked.message });
    }
    return kept;
  });
}

/**
 * What 'Guardar y continuar después' keeps: the visible answers that are valid so far, nothing required, and never
 * the signature (a signature is given when signing, not parked in a draft).
 */
export function draftAnswers(
  definition: FormDefinition,
  input: Readonly<Record<string, unknown>>,
): FormAnswers {
  const strings: FormAnswers = {};
  for (const [key, value] of Object.entries(input)) if (typeof value === "string") strings[key] = value;
  const visible = visibleQuestionIds(definition, strings);
  const kept: FormAnswers = {};
  for (const question of allQuestions(definition)) {
    const raw = strings[question.id];
    if (
      !visible.has(question.id) ||
      question.type === "signature" ||
      raw === undefined ||
      blank(question, raw)
    )
      continue;
    const checked = checkAnswer(question, raw);
    if (checked.ok) kept[question.id] = checked.value;
  }
  return kept;
}

/** A field error per question id, from a failed `answersSchema` parse. */
export function answerErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/** How an answer reads in the PDF and on the dentist's page. */
export function answerText(question: FormQuestion, value: string | undefined): string {
  if (value === undefined || value === "") return "Sin respuesta";
  if (question.type === "yes_no") return value === YES ? "Sí" : "No";
  if (question.type === "choice")
    return question.options.find((option) => option.value === value)?.label ?? value;
  if (question.type === "date") {
    const [year, month, day] = value.split("-");
    return `${day}-${month}-${year}`;
  }
  if (question.type === "signature") return "Firmado (imagen de la firma)";
  if (question.type === "text" && question.format === "phone") return formatChileanPhone(value);
  return value;
}
