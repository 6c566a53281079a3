import { describe, expect, it } from "vitest";
import {
  erasurePlan,
  exportedTables,
  personalTables,
  retainedUntil,
  retainedUntilDate,
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

  it.each([
    // 23:30 on 30 December in Santiago (summer, UTC-3) is already 31 December in UTC: the person is told the 30th.
    ["clinical", "2026-12-31T02:30:00.000Z", "2041-12-30"],
    // 21:00 on 31 December in Santiago is New Year in UTC: the year is the clinic's.
    ["accountability", "2027-01-01T00:00:00.000Z", "2031-12-31"],
    // Winter (UTC-4): 20:30 on 30 June is 1 July in UTC.
    ["tax", "2026-07-01T00:30:00.000Z", "2032-06-30"],
    ["clinical", "2026-11-27T15:00:00.000Z", "2041-11-27"],
  ] as const)("a %s row dated %s is kept until the clinic day %s", (basis, from, until) => {
    expect(retainedUntilDate(basis, new Date(from))).toBe(until);
  });
});
