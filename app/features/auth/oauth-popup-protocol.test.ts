import { describe, expect, it } from "vitest";
import { acceptPopupEvent, parseOAuthPopupMessage, popupFeatures } from "./oauth-popup-protocol";

describe("parseOAuthPopupMessage", () => {
  it("accepts the two shapes", () => {
    expect(parseOAuthPopupMessage({ type: "oauth_success" })).toEqual({ type: "oauth_success" });
    expect(parseOAuthPopupMessage({ type: "oauth_error", error: "access_denied" })).toEqual({
      type: "oauth_error",
      error: "access_denied",
    });
  });
  it.each([
    null,
    "oauth_success",
    [],
    { type: "oauth_success", access_token: "x" },
    { type: "oauth_error" },
    { type: "oauth_error", error: 42 },
    { type: "oauth_error", error: "x".repeat(201) },
    { type: "SIGNED_IN" },
  ])("rejects %j", (data) => {
    expect(parseOAuthPopupMessage(data)).toBeNull();
  });
});

describe("acceptPopupEvent", () => {
  const popup = {};
  it("needs our origin and our popup", () => {
    const data = { type: "oauth_success" };
    expect(
      acceptPopupEvent(
        { origin: "http://localhost:3000", source: popup as never, data },
        "http://localhost:3000",
        popup,
      ),
    ).toEqual(data);
    expect(
      acceptPopupEvent(
        { origin: "https://evil.example", source: popup as never, data },
        "http://localhost:3000",
        popup,
      ),
    ).toBeNull();
    expect(
      acceptPopupEvent(
        { origin: "http://localhost:3000", source: {} as never, data },
        "http://localhost:3000",
        popup,
      ),
    ).toBeNull();
  });
});

it("sizes the popup 500×600 and centres it", () => {
  expect(popupFeatures({ screenX: 0, screenY: 0, outerWidth: 1500, outerHeight: 1000 })).toBe(
    "popup=yes,width=500,height=600,left=500,top=200",
  );
});
