import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LeadAge } from "./lead-age";

describe("LeadAge", () => {
  it("renders the server's text during SSR (so hydration matches), whatever the clock says", () => {
    // Created a week ago, but the loader computed "hace 5 min" at its own instant: SSR must show exactly that.
    const at = new Date(Date.now() - 7 * 24 * 60 * 60_000).toISOString();
    const html = renderToString(<LeadAge at={at} serverText="hace 5 min" />);
    expect(html).toBe(`<time dateTime="${at}">hace 5 min</time>`);
  });
});
