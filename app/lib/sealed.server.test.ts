import { describe, expect, it } from "vitest";
import { seal, unseal } from "./sealed.server";

// The key comes from AUTH_SECRET (read once, on first use).
process.env.AUTH_SECRET ??= "unit-tests-secret-0123456789abcdef-0123";

describe("sealed values", () => {
  it("open to what was sealed, and show nothing of it", () => {
    const sealed = seal({ placeholders: { 0: "482913" } });
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("482913");
    expect(unseal(sealed)).toEqual({ placeholders: { 0: "482913" } });
    expect(seal("same")).not.toBe(seal("same"));
  });

  it("refuse an altered value", () => {
    const [version, iv, body, tag] = seal("482913").split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => unseal([version, iv, flipped.toString("base64url"), tag].join("."))).toThrow(
      /unable to authenticate/i,
    );
    expect(() => unseal("v1.abc")).toThrow(/unknown format/);
  });
});
