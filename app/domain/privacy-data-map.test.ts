import { describe, expect, it } from "vitest";
import {
  erasurePlan,
  exportedTables,
  personalTables,
  retainedUntil,
  tablesAffectedBy,
  type PersonalTable,
  type PersonalTableName,
} from "./privacy-data-map";

describe("privacy data map", () => {
  it.each<[PersonalTableName, "erase" | "anonymise" | "retain"]>([
    ["appointments", "retain"],
    ["clinical_record_access", "retain"],
    ["payments", "retain"],
    ["charges", "retain"],
    ["payment_refunds", "retain"],
    ["chat_messages", "erase"],
    ["advisor_messages", "erase"],
    ["consents", "erase"],
    ["leads", "anonymise"],
    ["whatsapp_messages", "anonymise"],
    ["whatsapp_inbound_messages", "erase"],
    ["patient_deposit_flags", "erase"],
    ["users", "anonymise"],
  ])("an erasure treats %s as %s", (table, treatment) => {
    expect(personalTables[table].erasure).toBe(treatment);
    expect(erasurePlan()[treatment]).toContain(table);
  });

  it("every retained table says why and from which column its term runs", () => {
    for (const table of erasurePlan().retain) {
      const entry: PersonalTable = personalTables[table];
      expect({ table, retention: entry.retention }).toMatchObject({ table, retention: expect.any(Object) });
    }
  });

  it.each([
    ["acceso", exportedTables().length, 0],
    ["portabilidad", exportedTables().length, 0],
    ["supresion", 0, erasurePlan().erase.length],
    ["rectificacion", 0, 0],
    ["oposicion", 0, 0],
    ["decisiones_automatizadas", 0, 0],
    ["bloqueo", 0, 0],
  ] as const)("%s reads %i tables and erases %i", (right, read, erased) => {
    const effect = tablesAffectedBy(right);
    expect(effect.read).toHaveLength(read);
    expect(effect.erase).toHaveLength(erased);
  });

  it.each([
    ["clinical", "2026-11-27T15:00:00.000Z", "2041-11-27T15:00:00.000Z"],
    ["tax", "2026-02-28T12:00:00.000Z", "2032-02-28T12:00:00.000Z"],
    ["accountability", "2026-01-01T03:00:00.000Z", "2031-01-01T03:00:00.000Z"],
  ] as const)("a %s row dated %s is kept until %s", (basis, from, until) => {
    expect(retainedUntil(basis, new Date(from)).toISOString()).toBe(until);
  });
});
