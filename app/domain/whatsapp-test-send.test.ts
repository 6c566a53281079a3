import { describe, expect, it } from "vitest";
import { effectiveTestMode, reachableOnWhatsApp, testSendProgress } from "./whatsapp-test-send";

describe("testSendProgress", () => {
  it("is sending until both messages are accepted", () => {
    expect(testSendProgress([])).toBe("sending");
    expect(testSendProgress(["queued", "queued"])).toBe("sending");
    expect(testSendProgress(["accepted", "queued"])).toBe("sending");
    expect(testSendProgress(["accepted", "accepted"])).toBe("success");
    expect(testSendProgress(["delivered", "read"])).toBe("success");
  });

  it("is an error as soon as one message failed for good", () => {
    expect(testSendProgress(["failed", "queued"])).toBe("error");
    expect(testSendProgress(["delivered", "failed"])).toBe("error");
  });

  it("does not call an unknown status a success", () => {
    expect(testSendProgress(["accepted", "mystery"])).toBe("sending");
  });
});

describe("effectiveTestMode", () => {
  it("follows the toggle, but the clinic's own test mode cannot be turned off", () => {
    expect(effectiveTestMode(true, false)).toBe(true);
    expect(effectiveTestMode(false, false)).toBe(false);
    expect(effectiveTestMode(false, true)).toBe(true);
    expect(effectiveTestMode(true, true)).toBe(true);
  });
});

describe("reachableOnWhatsApp", () => {
  it("accepts Chilean mobiles and refuses landlines", () => {
    expect(reachableOnWhatsApp("+56987654321")).toBe(true);
    expect(reachableOnWhatsApp("+56223456789")).toBe(false);
    expect(reachableOnWhatsApp("+56322345678")).toBe(false);
    expect(reachableOnWhatsApp("+5698765432")).toBe(false);
  });

  it("leaves other countries to the provider", () => {
    expect(reachableOnWhatsApp("+5491123456789")).toBe(true);
  });
});
