import { describe, expect, it } from "vitest";
import { ONE_TIME_CODE_LENGTH, SIGN_IN_CODE_LIFETIME, SIGN_IN_CODE_TTL_MS } from "~/domain/one-time-code";
import { authTexts } from "./auth-messages";

// The catalogues may import nothing (lint), so the numbers they state are tied to the rule's constants here.
describe("the sign-in step-up texts state the code's rules", () => {
  it("in Spanish", () => {
    expect(authTexts.es.stepUpHelp).toContain(`código de ${ONE_TIME_CODE_LENGTH} dígitos`);
    expect(authTexts.es.stepUpHelp).toContain(`vence en ${SIGN_IN_CODE_LIFETIME}.`);
    expect(authTexts.es.stepUpCodeFormat).toContain(`${ONE_TIME_CODE_LENGTH} dígitos`);
  });

  it("in English", () => {
    expect(authTexts.en.stepUpHelp).toContain(`${ONE_TIME_CODE_LENGTH}-digit code`);
    expect(authTexts.en.stepUpHelp).toContain(`expires in ${SIGN_IN_CODE_TTL_MS / 60_000} minutes.`);
    expect(authTexts.en.stepUpCodeFormat).toContain(`${ONE_TIME_CODE_LENGTH}-digit code`);
  });
});
