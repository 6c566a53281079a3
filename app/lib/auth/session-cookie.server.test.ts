import { makeSignature } from "better-auth/crypto";
// better-call is Better Auth's HTTP layer (a dependency of better-auth, not ours): imported here only to check
// that our cookie reading agrees with the getSignedCookie that Better Auth's getSession calls.
import { createInternalContext } from "better-call";
import { describe, expect, it } from "vitest";
import { readRequestCookie, verifySignedCookie } from "./session-cookie.server";

const NAME = "clinica.session_token";
const SECRET = "unit-test-secret-0123456789abcdef-0123";
const TOKEN = "k2Vq0hM3sYbqZ1pTzL9wXa4rNcE8uJ6d";

async function betterCallReads(cookieHeader: string): Promise<string | null> {
  const context = await createInternalContext(
    { headers: new Headers({ cookie: cookieHeader }) },
    { options: { method: "GET" }, path: "/get-session" },
  );
  return (await context.getSignedCookie(NAME, SECRET)) || null;
}

async function weRead(cookieHeader: string): Promise<string | null> {
  const value = readRequestCookie(cookieHeader, NAME);
  return value ? verifySignedCookie(value, SECRET) : null;
}

describe("the session cookie is read and verified as Better Auth's getSession does", async () => {
  const good = `${TOKEN}.${await makeSignature(TOKEN, SECRET)}`;
  const otherSecret = `${TOKEN}.${await makeSignature(TOKEN, "another-secret-0123456789abcdef-0123")}`;
  const otherToken = `${TOKEN}x.${good.split(".")[1]}`;
  const cases: Record<string, string> = {
    "signed, URL-encoded as set": `${NAME}=${encodeURIComponent(good)}`,
    "signed, raw": `${NAME}=${good}`,
    "quoted value": `${NAME}="${encodeURIComponent(good)}"`,
    "among other cookies": `a=1; ${NAME}=${encodeURIComponent(good)}; b=2`,
    "first of two wins (valid first)": `${NAME}=${encodeURIComponent(good)}; ${NAME}=${encodeURIComponent(otherSecret)}`,
    "first of two wins (forged first)": `${NAME}=${encodeURIComponent(otherSecret)}; ${NAME}=${encodeURIComponent(good)}`,
    "look-alike name only": `x${NAME}=${encodeURIComponent(good)}`,
    "signed with another secret": `${NAME}=${encodeURIComponent(otherSecret)}`,
    "another token, this signature": `${NAME}=${encodeURIComponent(otherToken)}`,
    "no signature": `${NAME}=${TOKEN}`,
    "empty signature": `${NAME}=${TOKEN}.`,
    "short signature": `${NAME}=${encodeURIComponent(good.slice(0, -2))}=`,
    "signature not base64": `${NAME}=${TOKEN}.${"*".repeat(43)}=`,
    "nothing before the dot": `${NAME}=.${encodeURIComponent(good.split(".")[1]!)}`,
    "bad %-escape": `${NAME}=%E0%A4%A.${good.split(".")[1]}`,
    "empty header": "",
    "no cookie of that name": "other=1",
  };

  it.each(Object.entries(cases))("%s", async (_label, header) => {
    expect(await weRead(header)).toBe(await betterCallReads(header));
  });

  it("accepts exactly the validly signed cases", async () => {
    const accepted = [];
    for (const [label, header] of Object.entries(cases)) if (await weRead(header)) accepted.push(label);
    expect(accepted).toEqual([
      "signed, URL-encoded as set",
      "signed, raw",
      "quoted value",
      "among other cookies",
      "first of two wins (valid first)",
    ]);
  });
});

describe("a value found good is remembered for its secret only", async () => {
  const OTHER = "another-secret-0123456789abcdef-0123";
  const good = `${TOKEN}.${await makeSignature(TOKEN, SECRET)}`;

  it("stays good for its secret and is refused under another one, however often it is checked", () => {
    for (let round = 0; round < 3; round++) {
      expect(verifySignedCookie(good, SECRET)).toBe(TOKEN);
      expect(verifySignedCookie(good, OTHER)).toBeNull();
    }
  });

  it("never remembers a forged value as good", async () => {
    const forged = `${TOKEN}.${await makeSignature(TOKEN, OTHER)}`;
    expect(verifySignedCookie(forged, SECRET)).toBeNull();
    expect(verifySignedCookie(forged, SECRET)).toBeNull();
    expect(verifySignedCookie(forged, OTHER)).toBe(TOKEN);
    expect(verifySignedCookie(forged, SECRET)).toBeNull();
  });
});
