import { describe, expect, it } from "vitest";
import { deliveryReportOutcome, statusesBefore } from "./whatsapp-message-status";

describe("statusesBefore", () => {
  it("moves forward only", () => {
    expect(statusesBefore("queued")).toEqual([]);
    expect(statusesBefore("accepted")).toEqual(["queued"]);
    expect(statusesBefore("delivered")).toEqual(["queued", "accepted"]);
    expect(statusesBefore("read")).toEqual(["queued", "accepted", "delivered"]);
  });

  it("fails only a message not yet delivered, and never leaves failed", () => {
    expect(statusesBefore("failed")).toEqual(["queued", "accepted"]);
    for (const target of ["accepted", "delivered", "read", "failed"] as const) {
      expect(statusesBefore(target)).not.toContain("failed");
    }
  });
});

describe("deliveryReportOutcome", () => {
  it("reads the status group", () => {
    expect(deliveryReportOutcome("DELIVERED")).toBe("delivered");
    expect(deliveryReportOutcome("undeliverable")).toBe("failed");
    expect(deliveryReportOutcome("REJECTED")).toBe("failed");
    expect(deliveryReportOutcome("EXPIRED")).toBe("failed");
    expect(deliveryReportOutcome("PENDING")).toBeNull();
    expect(deliveryReportOutcome("SOMETHING_NEW")).toBeNull();
  });
});
