import { describe, expect, it } from "vitest";
import { isAutomaticRequest, shouldTouchActivity, staffSessionVerdict } from "./session-policy";

const signIn = new Date("2026-11-24T12:00:00Z");
const at = (minutes: number) => new Date(signIn.getTime() + minutes * 60_000);

describe("staffSessionVerdict", () => {
  it.each([["asesor"], ["admin"], ["super_admin"], ["dentista"], ["ADMIN"]])(
    "ends a %s session after 30 idle minutes",
    (role) => {
      expect(staffSessionVerdict({ createdAt: signIn, lastActiveAt: at(10) }, [role], at(39))).toBe("valid");
      expect(staffSessionVerdict({ createdAt: signIn, lastActiveAt: at(10) }, [role], at(40))).toBe("idle");
    },
  );

  it("ends a staff session 12 hours after sign-in however active it is", () => {
    const busy = { createdAt: signIn, lastActiveAt: at(12 * 60 - 1) };
    expect(staffSessionVerdict(busy, ["asesor"], at(12 * 60 - 1))).toBe("valid");
    expect(staffSessionVerdict(busy, ["asesor"], at(12 * 60))).toBe("expired");
  });

  it("leaves patients' sessions to the sliding expiry", () => {
    expect(staffSessionVerdict({ createdAt: signIn, lastActiveAt: signIn }, ["paciente"], at(13 * 60))).toBe(
      "valid",
    );
    expect(staffSessionVerdict({ createdAt: signIn, lastActiveAt: signIn }, [], at(13 * 60))).toBe("valid");
  });
});

describe("shouldTouchActivity", () => {
  it("writes activity at most once a minute", () => {
    expect(shouldTouchActivity(signIn, new Date(signIn.getTime() + 59_999))).toBe(false);
    expect(shouldTouchActivity(signIn, new Date(signIn.getTime() + 60_000))).toBe(true);
  });
});

describe("isAutomaticRequest (reads that are not a person's activity)", () => {
  const page = "https://clinica.example/equipo/conversaciones";
  it.each([
    ["GET", `${page}?auto=1`, null, true],
    ["GET", `${page}?sala=abc&auto=1`, "*/*", true],
    ["GET", `${page}/eventos`, "text/event-stream", true],
    ["GET", page, "text/html", false],
    ["GET", `${page}?auto=0`, null, false],
    ["GET", `${page}?sala=abc`, null, false],
    ["POST", `${page}?auto=1`, null, false],
    ["POST", `${page}/eventos`, "text/event-stream", false],
  ])("%s %s (Accept %s) → %s", (method, url, accept, automatic) => {
    expect(isAutomaticRequest({ method, url, accept })).toBe(automatic);
  });
});
