import { describe, expect, it } from "vitest";
import { EMAIL_VERIFICATION_LINK_LIFETIME, PASSWORD_RESET_LINK_LIFETIME } from "./account-links";
import { SIGN_IN_CODE_LIFETIME } from "./one-time-code";
import {
  normaliseRecordCode,
  RECORD_CODE_EXPIRY_NOTICE,
  RECORD_CODE_LIFETIME,
  RECORD_CODE_MAX_ATTEMPTS,
  RECORD_CODE_MESSAGES,
  RECORD_CODE_SENT_MESSAGE,
  RECORD_CODE_TTL_MS,
  recordCodeChannel,
  recordCodeVerdict,
} from "./record-code";
import { REMINDER_NOTICE } from "./reminder-schedule";
import { whatsAppTemplates } from "./whatsapp-templates";

const now = new Date("2026-11-25T12:00:00Z");
const code = (overrides: Partial<Parameters<typeof recordCodeVerdict>[0]> = {}) => ({
  expiresAt: new Date(now.getTime() + RECORD_CODE_TTL_MS),
  attempts: 0,
  consumedAt: null,
  ...overrides,
});

describe("recordCodeVerdict", () => {
  it("is usable within 10 minutes and 5 attempts", () => {
    expect(recordCodeVerdict(code(), now)).toBe("usable");
    expect(recordCodeVerdict(code({ attempts: RECORD_CODE_MAX_ATTEMPTS - 1 }), now)).toBe("usable");
  });

  it("expires at its expiry instant", () => {
    expect(recordCodeVerdict(code({ expiresAt: now }), now)).toBe("expired");
  });

  it("is exhausted after 5 attempts and consumed once used", () => {
    expect(recordCodeVerdict(code({ attempts: 5 }), now)).toBe("exhausted");
    expect(recordCodeVerdict(code({ consumedAt: now }), now)).toBe("consumed");
  });
});

describe("normaliseRecordCode", () => {
  it.each([
    ["123456", "123456"],
    [" 123 456 ", "123456"],
    ["123-456", "123456"],
    ["12345", null],
    ["1234567", null],
    ["12345a", null],
  ])("%j → %j", (input, expected) => {
    expect(normaliseRecordCode(input)).toBe(expected);
  });
});

describe("recordCodeChannel", () => {
  it("prefers WhatsApp to a mobile, then e-mail, else nothing", () => {
    expect(recordCodeChannel({ mobile: "+56961234567", email: "a@b.cl" })).toBe("whatsapp");
    expect(recordCodeChannel({ mobile: null, email: "a@b.cl" })).toBe("email");
    expect(recordCodeChannel({ mobile: null, email: null })).toBeNull();
  });
});

describe("the code's texts, built from its constants", () => {
  it("state the length, the lifetime and the attempts exactly as the messages always have", () => {
    expect(RECORD_CODE_LIFETIME).toBe("10 minutos");
    expect(RECORD_CODE_EXPIRY_NOTICE).toBe(
      "Vence en 10 minutos. No lo compartas con nadie: la clínica nunca te lo pedirá.",
    );
    expect(RECORD_CODE_SENT_MESSAGE).toBe(
      "Si el RUT está registrado en la clínica, enviamos un código de 6 dígitos al teléfono o correo que la clínica tiene registrado.",
    );
    expect(RECORD_CODE_MESSAGES.format).toBe("Ingresa el código de 6 dígitos.");
    expect(RECORD_CODE_MESSAGES.exhausted).toBe("Superaste los 5 intentos. Solicita un código nuevo.");
    expect(whatsAppTemplates.clinicalRecordCode.body).toBe(
      "Tu código de acceso a tu ficha clínica es {{1}}. Vence en 10 minutos. No lo compartas con nadie.",
    );
  });

  it("the reminder template states the cancellation policy as it was approved", () => {
    expect(whatsAppTemplates.appointmentReminder.body).toBe(
      "Hola {{1}}, te recordamos tu cita en la clínica el {{2}} a las {{3}}. " +
        "Para confirmarla abre este enlace: {{4}} . Si no puedes asistir, cancélala aquí: {{5}} . " +
        "Si necesitas hablar con alguien de la clínica, pídelo aquí y te llamamos: {{6}} . " +
        "Cancelar con menos de 24 horas de anticipación tiene un cargo del 50% del tratamiento.",
    );
  });
});

describe("other lifetimes the texts state", () => {
  it("the sign-in code and the e-mailed links", () => {
    expect(SIGN_IN_CODE_LIFETIME).toBe("10 minutos");
    expect(PASSWORD_RESET_LINK_LIFETIME).toBe("1 hora");
    expect(EMAIL_VERIFICATION_LINK_LIFETIME).toBe("24 horas");
    expect(REMINDER_NOTICE).toBe("24 horas");
  });
});
