import { describe, expect, it } from "vitest";
import { CUSTOMER_CARE_WINDOW_MS, chooseSendKind, customerCareWindowOpen } from "./whatsapp-window";

const now = new Date("2026-03-10T15:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

describe("customerCareWindowOpen", () => {
  it("is closed for someone who never wrote", () => {
    expect(customerCareWindowOpen(null, now)).toBe(false);
    expect(customerCareWindowOpen(undefined, now)).toBe(false);
  });

  it("is open for less than 24 hours after the last inbound message, closed from then on", () => {
    expect(customerCareWindowOpen(ago(0), now)).toBe(true);
    expect(customerCareWindowOpen(ago(23 * 3_600_000), now)).toBe(true);
    expect(customerCareWindowOpen(ago(CUSTOMER_CARE_WINDOW_MS - 1), now)).toBe(true);
    expect(customerCareWindowOpen(ago(CUSTOMER_CARE_WINDOW_MS), now)).toBe(false);
    expect(customerCareWindowOpen(ago(3 * CUSTOMER_CARE_WINDOW_MS), now)).toBe(false);
  });

  it("counts a message stamped slightly in the future (clock skew) as just received", () => {
    expect(customerCareWindowOpen(new Date(now.getTime() + 5_000), now)).toBe(true);
  });
});

describe("chooseSendKind", () => {
  const both = { hasText: true, hasTemplate: true };
  it("sends the text inside the window and the template outside it", () => {
    expect(chooseSendKind(both, true)).toBe("text");
    expect(chooseSendKind(both, false)).toBe("template");
  });

  it("sends a template-only message (a reminder) as a template either way", () => {
    expect(chooseSendKind({ hasText: false, hasTemplate: true }, true)).toBe("template");
    expect(chooseSendKind({ hasText: false, hasTemplate: true }, false)).toBe("template");
  });

  it("has nothing to send for text only outside the window", () => {
    expect(chooseSendKind({ hasText: true, hasTemplate: false }, true)).toBe("text");
    expect(chooseSendKind({ hasText: true, hasTemplate: false }, false)).toBeNull();
  });
});
