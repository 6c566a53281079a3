import { describe, expect, it } from "vitest";
import {
  formatInfobipDate,
  parseInfobipDate,
  sendOutcome,
  whatsAppDeliveryReportSchema,
  whatsAppErrorCode,
  whatsAppInboundSchema,
  whatsAppSeenReportSchema,
  whatsAppSendResponseSchema,
  whatsAppValidationErrors,
} from "./whatsapp-schemas";

const pending = {
  groupId: 1,
  groupName: "PENDING",
  id: 7,
  name: "PENDING_ENROUTE",
  description: "Message sent to next instance",
};

describe("send answers", () => {
  it("reads the text endpoint's single-message answer", () => {
    const parsed = whatsAppSendResponseSchema.parse({
      to: "56912345678",
      messageCount: 1,
      messageId: "a28dd97c-1ffb-4fcf-99f1-0b557ed381da",
      status: pending,
    });
    expect(parsed).toEqual({
      messages: [
        {
          to: "56912345678",
          messageCount: 1,
          messageId: "a28dd97c-1ffb-4fcf-99f1-0b557ed381da",
          status: pending,
        },
      ],
    });
  });

  it("reads the template endpoint's bulk answer and the spec's minimal {messages:[…]}", () => {
    const bulk = whatsAppSendResponseSchema.parse({
      messages: [{ to: "56912345678", messageCount: 1, messageId: "m-1", status: pending }],
      bulkId: "b-1",
    });
    expect(bulk.bulkId).toBe("b-1");
    expect(bulk.messages[0]?.messageId).toBe("m-1");
    const minimal = whatsAppSendResponseSchema.parse({
      messages: [{ messageId: "m-2", status: { groupName: "PENDING", name: "PENDING_ACCEPTED" } }],
    });
    expect(minimal.messages[0]).toEqual({
      messageId: "m-2",
      status: { groupName: "PENDING", name: "PENDING_ACCEPTED" },
    });
  });

  it("tolerates new vendor fields and refuses answers without an id or status", () => {
    expect(
      whatsAppSendResponseSchema.safeParse({
        to: "1",
        messageId: "m",
        status: { ...pending, action: "x" },
        new: 1,
      }).success,
    ).toBe(true);
    expect(whatsAppSendResponseSchema.safeParse({ to: "1", status: pending }).success).toBe(false);
    expect(whatsAppSendResponseSchema.safeParse({ messages: [{ messageId: "m" }] }).success).toBe(false);
    expect(whatsAppSendResponseSchema.safeParse("accepted").success).toBe(false);
  });

  it("counts PENDING/ACCEPTED (and unknown groups) as accepted, REJECTED/UNDELIVERABLE as failed", () => {
    expect(sendOutcome("PENDING")).toBe("accepted");
    expect(sendOutcome("ACCEPTED")).toBe("accepted");
    expect(sendOutcome("SOMETHING_NEW")).toBe("accepted");
    expect(sendOutcome("REJECTED")).toBe("failed");
    expect(sendOutcome("undeliverable")).toBe("failed");
    expect(sendOutcome("EXPIRED")).toBe("failed");
  });
});

describe("error bodies", () => {
  it("reads the code and the validation errors", () => {
    const unauthorized = {
      requestError: { serviceException: { messageId: "UNAUTHORIZED", text: "Invalid login details" } },
    };
    expect(whatsAppErrorCode(unauthorized)).toBe("UNAUTHORIZED");
    expect(whatsAppValidationErrors(unauthorized)).toBeUndefined();
    const badRequest = {
      requestError: {
        serviceException: {
          messageId: "BAD_REQUEST",
          text: "Bad request",
          validationErrors: { "content.text": ["must not be blank"] },
        },
      },
    };
    expect(whatsAppErrorCode(badRequest)).toBe("BAD_REQUEST");
    expect(whatsAppValidationErrors(badRequest)).toEqual({ "content.text": ["must not be blank"] });
  });

  it("gives no code for bodies of another shape", () => {
    expect(whatsAppErrorCode("<html>Bad gateway</html>")).toBeUndefined();
    expect(whatsAppErrorCode({ error: "x" })).toBeUndefined();
    expect(whatsAppErrorCode(null)).toBeUndefined();
  });
});

describe("webhooks", () => {
  it("reads Infobip's dates (offset without a colon) and writes them back the same way", () => {
    expect(parseInfobipDate("2019-08-01T12:00:00.000+0000")?.toISOString()).toBe("2019-08-01T12:00:00.000Z");
    expect(parseInfobipDate("2026-04-04T23:30:00.000-0300")?.toISOString()).toBe("2026-04-05T02:30:00.000Z");
    expect(parseInfobipDate("2026-04-04T23:30:00.000-03:00")?.toISOString()).toBe("2026-04-05T02:30:00.000Z");
    expect(parseInfobipDate("yesterday")).toBeNull();
    expect(formatInfobipDate(new Date("2026-09-06T04:00:00Z"))).toBe("2026-09-06T04:00:00.000+0000");
  });

  it("reads delivery reports", () => {
    const report = whatsAppDeliveryReportSchema.parse({
      results: [
        {
          bulkId: "b-1",
          messageId: "m-1",
          to: "56912345678",
          sentAt: "2026-03-01T12:00:00.000+0000",
          doneAt: "2026-03-01T12:00:01.000+0000",
          messageCount: 1,
          price: { pricePerMessage: 0, currency: "USD" },
          status: {
            groupId: 3,
            groupName: "DELIVERED",
            id: 5,
            name: "DELIVERED_TO_HANDSET",
            description: "x",
          },
          error: {
            groupId: 0,
            groupName: "OK",
            id: 0,
            name: "NO_ERROR",
            description: "No Error",
            permanent: false,
          },
          callbackData: "outbox:42",
        },
      ],
    });
    expect(report.results[0]).toMatchObject({ messageId: "m-1", callbackData: "outbox:42" });
    expect(report.results[0]?.status.name).toBe("DELIVERED_TO_HANDSET");
    expect(
      whatsAppDeliveryReportSchema.safeParse({
        results: [{ messageId: "m", to: "1", status: { groupName: "X" } }],
      }).success,
    ).toBe(false);
    expect(
      whatsAppDeliveryReportSchema.safeParse({
        results: [{ messageId: "m", to: "1", sentAt: "nope", status: { groupName: "X", name: "Y" } }],
      }).success,
    ).toBe(false);
  });

  it("reads seen reports", () => {
    const seen = whatsAppSeenReportSchema.parse({
      results: [
        {
          messageId: "m-1",
          from: "56900000000",
          to: "56912345678",
          sentAt: "2026-03-01T12:00:00.000+0000",
          seenAt: "2026-03-01T12:05:00.000+0000",
          applicationId: "default",
        },
      ],
    });
    expect(seen.results[0]?.seenAt).toBe("2026-03-01T12:05:00.000+0000");
    expect(whatsAppSeenReportSchema.safeParse({ results: [{ messageId: "m-1" }] }).success).toBe(false);
  });

  it("reads inbound text messages and keeps other types by their type", () => {
    const inbound = whatsAppInboundSchema.parse({
      results: [
        {
          from: "56912345678",
          to: "56900000000",
          integrationType: "WHATSAPP",
          receivedAt: "2026-03-01T12:00:00.000+0000",
          messageId: "in-1",
          pairedMessageId: null,
          callbackData: null,
          message: { type: "TEXT", text: "Hola, quiero una hora" },
          contact: { name: "Ana" },
          price: { pricePerMessage: 0, currency: "USD" },
        },
        {
          from: "56912345678",
          to: "56900000000",
          integrationType: "WHATSAPP",
          receivedAt: "2026-03-01T12:01:00.000+0000",
          messageId: "in-2",
          message: { type: "IMAGE", url: "https://example.test/media/1", caption: "radiografía" },
        },
      ],
      messageCount: 2,
      pendingMessageCount: 0,
    });
    expect(inbound.results[0]?.message).toEqual({ type: "TEXT", text: "Hola, quiero una hora" });
    expect(inbound.results[1]?.message.type).toBe("IMAGE");
    const textWithoutText = {
      results: [
        {
          from: "1",
          to: "2",
          integrationType: "WHATSAPP",
          receivedAt: "2026-03-01T12:00:00.000+0000",
          messageId: "x",
          message: { type: "TEXT" },
        },
      ],
    };
    expect(whatsAppInboundSchema.safeParse(textWithoutText).success).toBe(false);
    const sms = {
      results: [
        { ...textWithoutText.results[0], integrationType: "SMS", message: { type: "TEXT", text: "x" } },
      ],
    };
    expect(whatsAppInboundSchema.safeParse(sms).success).toBe(false);
  });
});
