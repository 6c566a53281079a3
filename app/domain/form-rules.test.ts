import { describe, expect, it } from "vitest";
import { antecedentesSalud } from "~/content/forms/antecedentes-salud";
import { consentimientoEstetica } from "~/content/forms/consentimiento-estetica";
import { signatureDataUrl } from "../../tests/setup/signature-png";
import {
  answerErrors,
  answersSchema,
  answerText,
  draftAnswers,
  FORM_MESSAGES,
  formDefinitionSchema,
  signaturePngBytes,
  visibleQuestionIds,
  type FormAnswers,
} from "./form-rules";

const intake = formDefinitionSchema.parse(antecedentesSalud);
const consent = formDefinitionSchema.parse(consentimientoEstetica);

const healthyAnswers: FormAnswers = {
  hipertension: "no",
  cardiopatia: "no",
  diabetes: "no",
  coagulacion: "no",
  respiratoria: "no",
  infecciosa: "no",
  epilepsia: "no",
  hueso: "no",
  otras_condiciones: "no",
  toma_medicamentos: "no",
  alergias: "no",
  embarazo: "no_aplica",
  lactancia: "no_aplica",
  problemas_anestesia: "no",
  contacto_nombre: "Rosa Pérez",
  contacto_relacion: "Madre",
  contacto_telefono: "9 8765 4321",
  declaracion_veraz: "si",
};

describe("the seeded forms", () => {
  it("parse as definitions, with the kinds and treatments the assignment reads", () => {
    expect(intake.kind).toBe("antecedentes");
    expect(intake.treatmentSlugs).toEqual([]);
    expect(consent.kind).toBe("consentimiento");
    expect(consent.treatmentSlugs).toEqual(["estetica"]);
    expect(consent.sections.flatMap((s) => s.questions).some((q) => q.type === "signature")).toBe(true);
  });
});

describe("definition format", () => {
  const minimal = {
    slug: "prueba",
    version: 1,
    kind: "antecedentes",
    title: "Prueba",
    sections: [{ id: "a", title: "A", questions: [{ id: "x", type: "yes_no", label: "¿X?" }] }],
  };

  it("refuses a condition on a later or unknown question (conditions cannot loop)", () => {
    const forward = structuredClone(minimal) as Record<string, unknown> & typeof minimal;
    (forward.sections[0]!.questions as unknown[]).unshift({
      id: "y",
      type: "text",
      label: "Y",
      showWhen: { question: "x", equals: "si" },
    });
    expect(formDefinitionSchema.safeParse(forward).success).toBe(false);
  });

  it("refuses duplicate ids, a condition value the question cannot answer, and unknown keys", () => {
    const duplicate = structuredClone(minimal);
    (duplicate.sections[0]!.questions as unknown[]).push({ id: "x", type: "text", label: "X" });
    expect(formDefinitionSchema.safeParse(duplicate).success).toBe(false);
    const impossible = structuredClone(minimal);
    (impossible.sections[0]!.questions as unknown[]).push({
      id: "y",
      type: "text",
      label: "Y",
      showWhen: { question: "x", equals: "quizas" },
    });
    expect(formDefinitionSchema.safeParse(impossible).success).toBe(false);
    expect(formDefinitionSchema.safeParse({ ...minimal, script: "alert(1)" }).success).toBe(false);
    expect(formDefinitionSchema.safeParse(minimal).success).toBe(true);
  });
});

describe("conditions", () => {
  it("shows '¿Cuáles?' only when the medication question is answered Sí", () => {
    expect(visibleQuestionIds(intake, { toma_medicamentos: "no" }).has("medicamentos_detalle")).toBe(false);
    expect(visibleQuestionIds(intake, {}).has("medicamentos_detalle")).toBe(false);
    const yes = visibleQuestionIds(intake, { toma_medicamentos: "si" });
    expect(yes.has("medicamentos_detalle")).toBe(true);
    expect(yes.has("anticoagulantes")).toBe(true);
  });

  it("shows the weeks of pregnancy only for Sí among four choices", () => {
    for (const [value, shown] of [
      ["si", true],
      ["no", false],
      ["no_sabe", false],
      ["no_aplica", false],
    ] as const) {
      expect(visibleQuestionIds(intake, { embarazo: value }).has("embarazo_semanas")).toBe(shown);
    }
  });

  it("hides a question whose own condition question is hidden (chains)", () => {
    const chained = formDefinitionSchema.parse({
      slug: "cadena",
      version: 1,
      kind: "antecedentes",
      title: "Cadena",
      sections: [
        {
          id: "s",
          title: "S",
          questions: [
            { id: "a", type: "yes_no", label: "A" },
            { id: "b", type: "yes_no", label: "B", showWhen: { question: "a", equals: "si" } },
            { id: "c", type: "text", label: "C", showWhen: { question: "b", equals: "si" } },
          ],
        },
      ],
    });
    expect(visibleQuestionIds(chained, { a: "si", b: "si" }).has("c")).toBe(true);
    // b still holds "si" from before, but a was changed to No: b is hidden, so c is too.
    expect(visibleQuestionIds(chained, { a: "no", b: "si" }).has("c")).toBe(false);
  });
});

describe("validation", () => {
  it("accepts a complete health history and normalises the phone", () => {
    const result = answersSchema(intake).safeParse(healthyAnswers);
    expect(result.success).toBe(true);
    expect(result.data?.contacto_telefono).toBe("+56987654321");
  });

  it("requires a visible required question and not a hidden one", () => {
    const withMeds = answersSchema(intake).safeParse({ ...healthyAnswers, toma_medicamentos: "si" });
    expect(withMeds.success).toBe(false);
    const errors = answerErrors(withMeds.error!);
    expect(errors.medicamentos_detalle).toBe(FORM_MESSAGES.required);
    expect(errors.anticoagulantes).toBe(FORM_MESSAGES.required);
    const without = answersSchema(intake).safeParse(healthyAnswers);
    expect(without.success).toBe(true);
  });

  it("drops the answers of hidden questions and unknown keys instead of storing them", () => {
    const result = answersSchema(intake).parse({
      ...healthyAnswers,
      medicamentos_detalle: "Losartán 50 mg",
      inyectado: "<script>",
    });
    expect(result).not.toHaveProperty("medicamentos_detalle");
    expect(result).not.toHaveProperty("inyectado");
  });

  it("refuses a value outside the options, an impossible date, and 'No' to a declaration", () => {
    const bad = answersSchema(intake).safeParse({
      ...healthyAnswers,
      embarazo: "tal_vez",
      declaracion_veraz: "no",
      contacto_telefono: "123",
    });
    const errors = answerErrors(bad.error!);
    expect(errors.embarazo).toBe(FORM_MESSAGES.choice);
    expect(errors.declaracion_veraz).toBe(FORM_MESSAGES.mustBeYes);
    expect(errors.contacto_telefono).toBe(FORM_MESSAGES.phone);
    const dated = formDefinitionSchema.parse({
      slug: "fecha",
      version: 1,
      kind: "antecedentes",
      title: "Fecha",
      sections: [{ id: "s", title: "S", questions: [{ id: "d", type: "date", label: "D", required: true }] }],
    });
    expect(answersSchema(dated).safeParse({ d: "2026-02-30" }).success).toBe(false);
    expect(answersSchema(dated).safeParse({ d: "2026-02-28" }).success).toBe(true);
  });

  describe("the consent", () => {
    const signed = {
      procedimiento: "toxina_botulinica",
      informacion_comprendida: "si",
      acepta_procedimiento: "si",
      nombre_completo: "Ana María Muñoz Soto",
      rut: "12.345.678-5",
      firma: signatureDataUrl(),
    };

    it("accepts a signed consent and stores the RUT formatted", () => {
      const result = answersSchema(consent).parse({ ...signed, rut: "123456785" });
      expect(result.rut).toBe("12.345.678-5");
      expect(result.firma).toMatch(/^data:image\/png;base64,/);
    });

    it("requires the drawn signature", () => {
      const { firma: _firma, ...unsigned } = signed;
      const result = answersSchema(consent).safeParse(unsigned);
      expect(answerErrors(result.error!).firma).toBe(FORM_MESSAGES.signature);
    });

    it("refuses a signature that is not a PNG, and a wrong RUT", () => {
      const result = answersSchema(consent).safeParse({
        ...signed,
        firma: "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
        rut: "12.345.678-9",
      });
      const errors = answerErrors(result.error!);
      expect(errors.firma).toBe(FORM_MESSAGES.signature);
      expect(errors.rut).toBe("El RUT ingresado no es válido");
      expect(signaturePngBytes("data:image/png;base64,iVBORw0KGgo=")).toBeNull();
    });

    it("needs the other procedure named only when 'Otro' is chosen", () => {
      expect(answersSchema(consent).safeParse({ ...signed, procedimiento: "otro" }).success).toBe(false);
      expect(
        answersSchema(consent).safeParse({
          ...signed,
          procedimiento: "otro",
          procedimiento_otro: "Gingivoplastía",
        }).success,
      ).toBe(true);
    });
  });
});

describe("drafts", () => {
  it("keep valid visible answers, never the signature, and need nothing", () => {
    const draft = draftAnswers(consent, {
      procedimiento: "carillas",
      rut: "12.345.678-9",
      nombre_completo: "Ana",
      firma: signatureDataUrl(),
    });
    expect(draft).toEqual({ procedimiento: "carillas", nombre_completo: "Ana" });
  });
});

describe("answer text", () => {
  it("reads Sí/No, option labels, dates and phones the way people write them", () => {
    const questions = intake.sections.flatMap((s) => s.questions);
    const find = (id: string) => questions.find((q) => q.id === id)!;
    expect(answerText(find("diabetes"), "si")).toBe("Sí");
    expect(answerText(find("embarazo"), "no_sabe")).toBe("No lo sé");
    expect(answerText(find("contacto_telefono"), "+56987654321")).toBe("+56 9 8765 4321");
    expect(answerText(find("diabetes"), undefined)).toBe("Sin respuesta");
  });
});
