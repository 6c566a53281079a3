import { describe, expect, it } from "vitest";
import { checkoutPath, checkoutRedirect } from "./payment-paths";

describe("checkoutRedirect", () => {
  it("sends the browser to the checkout page as a full document load", () => {
    const id = "3b990f32-63fe-446b-8666-5658c77a89db";
    const response = checkoutRedirect(id);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(checkoutPath(id));
    // Only a document response carries the checkout's CSP (form-action allows Webpay's origin): a client-side
    // navigation would keep the previous page's `form-action 'self'` and the post to Webpay would be blocked.
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
  });
});
