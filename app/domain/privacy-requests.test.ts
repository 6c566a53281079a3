import { describe, expect, it } from "vitest";
import { privacyRequestStatuses, privacyRights, type PrivacyRequestStatus } from "./privacy";
import {
  blockingMayBeAsked,
  canTake,
  eventLabels,
  identityLabel,
  isClosed,
  isOpen,
  nextState,
  privacyEventKinds,
  privacyRequestActions,
  restrictionsForRight,
  rightDescriptions,
  rightEffects,
  rightLabels,
  statusLabels,
  type PrivacyRequestAction,
} from "./privacy-requests";

describe("the request state machine", () => {
  // Every (state, action) pair: the resulting state, or null when refused.
  const table: Record<PrivacyRequestStatus, Partial<Record<PrivacyRequestAction, PrivacyRequestStatus>>> = {
    unverified: { verify: "received", expire: "expired", withdraw: "withdrawn" },
    received: {
      note: "in_progress",
      extend: "in_progress",
      approve: "approved",
      partially_approve: "partially_approved",
      refuse: "refused",
      withdraw: "withdrawn",
    },
    in_progress: {
      note: "in_progress",
      extend: "in_progress",
      approve: "approved",
      partially_approve: "partially_approved",
      refuse: "refused",
      withdraw: "withdrawn",
    },
    approved: { note: "approved" },
    partially_approved: { note: "partially_approved" },
    refused: { note: "refused" },
    withdrawn: { note: "withdrawn" },
    expired: {},
  };
  const cases = privacyRequestStatuses.flatMap((status) =>
    privacyRequestActions.map((action) => [status, action, table[status][action] ?? null] as const),
  );
  it.each(cases)("%s + %s → %s", (status, action, expected) => {
    expect(nextState(status, action)).toBe(expected);
    expect(canTake(status, action)).toBe(expected !== null);
  });

  it.each([
    ["unverified", false, false],
    ["received", true, false],
    ["in_progress", true, false],
    ["approved", false, true],
    ["partially_approved", false, true],
    ["refused", false, true],
    ["withdrawn", false, true],
    ["expired", false, true],
  ] as const)("%s: open %s, closed %s", (status, open, closed) => {
    expect(isOpen(status)).toBe(open);
    expect(isClosed(status)).toBe(closed);
  });
});

describe("what each right does", () => {
  it.each([
    ["acceso", "export", []],
    ["portabilidad", "export", []],
    ["rectificacion", "record_correction", []],
    ["supresion", "erase", []],
    ["oposicion", "object", ["perfilamiento", "marketing"]],
    ["decisiones_automatizadas", "object_profiling", ["perfilamiento"]],
    ["bloqueo", "block", ["bloqueo"]],
  ] as const)("%s → %s, restrictions %j", (right, effect, restrictions) => {
    expect(rightEffects[right]).toBe(effect);
    expect(restrictionsForRight(right)).toEqual(restrictions);
  });

  it.each([
    ["acceso", false],
    ["portabilidad", false],
    ["rectificacion", true],
    ["supresion", true],
    ["oposicion", true],
    ["decisiones_automatizadas", true],
    ["bloqueo", false],
  ] as const)("blocking while deciding may be asked with %s: %s", (right, allowed) => {
    expect(blockingMayBeAsked(right)).toBe(allowed);
  });
});

describe("Spanish labels", () => {
  it("names every right, state and history entry", () => {
    for (const right of privacyRights) {
      expect(rightLabels[right]).toMatch(/^\p{Lu}/u);
      expect(rightDescriptions[right]).toContain(":");
    }
    for (const status of privacyRequestStatuses) expect(statusLabels[status]).toBeTruthy();
    for (const kind of privacyEventKinds) expect(eventLabels[kind]).toBeTruthy();
    expect(rightLabels.supresion).toBe("Supresión (eliminación)");
    expect(statusLabels.partially_approved).toBe("Aprobada en parte");
  });

  it.each([
    [{ status: "received", verifiedVia: "session" }, "Verificada: sesión iniciada en su cuenta"],
    [{ status: "received", verifiedVia: "email" }, "Verificada: abrió el enlace enviado a su e-mail"],
    [
      { status: "in_progress", verifiedVia: "whatsapp" },
      "Verificada: ingresó el código enviado por WhatsApp",
    ],
    [{ status: "unverified", verifiedVia: null }, "Sin confirmar: aún no prueba que controla el contacto"],
    [{ status: "expired", verifiedVia: null }, "Sin confirmar: la confirmación venció"],
  ] as const)("identity of %j", (request, label) => {
    expect(identityLabel(request)).toBe(label);
  });
});
