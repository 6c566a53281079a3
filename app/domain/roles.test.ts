import { describe, expect, it } from "vitest";
import {
  hasAdminRole,
  CLINICAL_READER_ROLES,
  landingPathForRoles,
  requiresTwoFactor,
  roleNames,
  safeRedirectPath,
} from "./roles";

describe("landingPathForRoles (spec 000 §6)", () => {
  it.each([
    [["paciente"], "/paciente"],
    [["dentista"], "/dentista"],
    [["admin"], "/admin"],
    [["super_admin"], "/admin"],
    [["ADMIN"], "/admin"],
    [["asesor"], "/funnel"],
    [["recepcion"], "/paciente"],
    [[], "/paciente"],
    [["paciente", "dentista"], "/dentista"],
    [["asesor", "admin"], "/admin"],
  ])("%j → %s", (roles, path) => {
    expect(landingPathForRoles(roles)).toBe(path);
  });
});

describe("safeRedirectPath", () => {
  // Percent-encoded CR/LF stays encoded in the Location header, so it is harmless.
  it.each(["/paciente/citas", "/paciente/citas?tab=historial", "/blog#top", "/", "/%0d%0aSet-Cookie:x"])(
    "keeps %s",
    (value) => {
      expect(safeRedirectPath(value)).toBe(value);
    },
  );
  it("returns the normalised path, which starts with exactly one slash", () => {
    expect(safeRedirectPath("/paciente/./citas/../perfil")).toBe("/paciente/perfil");
    expect(safeRedirectPath("/../paciente")).toBe("/paciente");
  });
  it.each([
    "//evil.example",
    "https://evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "http:/evil.example",
    "javascript:alert(1)",
    "/paciente\u0000",
    "/\tevil",
    "/auth",
    "/auth/callback",
    // Dot segments that normalise to a protocol-relative path (an open redirect once slipped through this way).
    "/.//evil.example",
    "/..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/%2e//evil.example",
    "/a/..//evil.example",
    "/./\\evil.example",
    "/..\\evil.example",
    "/%2e%2e/\\evil.example",
    "/%5c%5cevil.example/..//x",
    "/.//auth",
    "",
    null,
    undefined,
    "paciente",
  ])("refuses %j", (value) => {
    expect(safeRedirectPath(value)).toBeNull();
  });
});

describe("CLINICAL_READER_ROLES", () => {
  it("is dentists and admins, never asesores or patients", () => {
    expect(CLINICAL_READER_ROLES.toSorted()).toEqual(["admin", "dentista", "super_admin"]);
  });
});

describe("requiresTwoFactor", () => {
  it("applies to asesores and every clinical reader, not to patients", () => {
    expect(requiresTwoFactor(["asesor"])).toBe(true);
    expect(requiresTwoFactor(["dentista"])).toBe(true);
    expect(requiresTwoFactor(["paciente", "dentista"])).toBe(true);
    expect(requiresTwoFactor(["DENTISTA"])).toBe(true);
    expect(requiresTwoFactor(["paciente"])).toBe(false);
    expect(requiresTwoFactor([])).toBe(false);
  });

  it("covers every role that reads clinical data", () => {
    for (const role of CLINICAL_READER_ROLES) expect(requiresTwoFactor([role])).toBe(true);
    const exempt = roleNames.filter((role) => !requiresTwoFactor([role]));
    expect(exempt).toEqual(["paciente"]);
  });
});

describe("hasAdminRole", () => {
  it.each([
    [["admin"], true],
    [["SUPER_ADMIN"], true],
    [["asesor", "admin"], true],
    [["asesor"], false],
    [["dentista", "paciente"], false],
    [[], false],
  ])("%j → %s", (roles, expected) => {
    expect(hasAdminRole(roles)).toBe(expected);
  });
});
