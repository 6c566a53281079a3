import { describe, expect, it } from "vitest";
import { clinicFacts, EnvError, isDemoMode, parseEnv } from "./env.server";

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("parseEnv", () => {
  it("applies the defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: "./data", MEDIA_BASE_URL: "/media", SEED_DEMO: false });
    expect(isDemoMode(env)).toBe(true);
  });

  it("lists every bad variable at once", () => {
    const error = captureError(() =>
      parseEnv({ PORT: "abc", DATABASE_URL: "mysql://x", CLINIC_PHONE: "123", LOG_LEVEL: "loud" }),
    );
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems;
    expect(problems).toHaveLength(4);
    for (const name of ["PORT", "DATABASE_URL", "CLINIC_PHONE", "LOG_LEVEL"]) {
      expect(problems.some((problem) => problem.startsWith(`${name}:`))).toBe(true);
    }
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it("seeds demo data on PostgreSQL only with SEED_DEMO", () => {
    expect(isDemoMode(parseEnv({ DATABASE_URL: "postgres://localhost/x" }))).toBe(false);
    expect(isDemoMode(parseEnv({ DATABASE_URL: "postgres://localhost/x", SEED_DEMO: "1" }))).toBe(true);
  });

  it("lets the clinic facts be overridden", () => {
    const facts = clinicFacts(
      parseEnv({ CLINIC_PHONE: "+56229998888", PUBLIC_BASE_URL: "https://clinica.example" }),
    );
    expect(facts.phone).toBe("+56229998888");
    expect(facts.siteUrl).toBe("https://clinica.example");
  });
});
