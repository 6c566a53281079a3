import { describe, expect, it } from "vitest";
import { backupFileName, backupsToDelete, dailyBackupDue, parseBackupName } from "./backups";

const at = (iso: string) => new Date(iso);

describe("backupFileName / parseBackupName", () => {
  it("names a backup by kind and UTC second, and reads it back", () => {
    const name = backupFileName("diario", at("2027-11-03T06:00:07.123Z"), "tar.gz");
    expect(name).toBe("clinica-diario-20271103T060007Z.tar.gz");
    expect(parseBackupName(name)).toEqual({
      name,
      kind: "diario",
      format: "tar.gz",
      takenAt: at("2027-11-03T06:00:07.000Z"),
    });
    expect(parseBackupName(backupFileName("manual", at("2027-01-01T00:00:00Z"), "dump"))?.format).toBe(
      "dump",
    );
  });

  it.each([
    "notas.txt",
    "clinica-diario-20271103T060007Z.tar",
    "clinica-semanal-20271103T060007Z.tar.gz",
    "clinica-diario-20270431T060007Z.tar.gz",
    "clinica-diario-20271103T250007Z.tar.gz",
    "xclinica-diario-20271103T060007Z.tar.gz",
  ])("ignores %s", (name) => {
    expect(parseBackupName(name)).toBeNull();
  });
});

const daily = (day: number) =>
  backupFileName("diario", at(`2027-11-${String(day).padStart(2, "0")}T06:00:00Z`), "tar.gz");

describe("backupsToDelete", () => {
  it("keeps the newest `keep` daily backups, whatever order the listing has", () => {
    const names = [daily(5), daily(1), daily(3), daily(2), daily(4)];
    expect(backupsToDelete(names, 3).toSorted()).toEqual([daily(1), daily(2)]);
    expect(backupsToDelete(names, 5)).toEqual([]);
    expect(backupsToDelete(names, 14)).toEqual([]);
    expect(backupsToDelete(names, 1).toSorted()).toEqual([daily(1), daily(2), daily(3), daily(4)]);
  });

  it("never lists manual backups or foreign files, and they do not count towards `keep`", () => {
    const manual = backupFileName("manual", at("2027-10-01T00:00:00Z"), "tar.gz");
    const names = [manual, "léame.txt", daily(1), daily(2), daily(3)];
    expect(backupsToDelete(names, 2)).toEqual([daily(1)]);
  });

  it("refuses a keep below one", () => {
    expect(() => backupsToDelete([daily(1)], 0)).toThrow(RangeError);
    expect(() => backupsToDelete([daily(1)], 1.5)).toThrow(RangeError);
  });
});

describe("dailyBackupDue", () => {
  it("is due when no daily backup was taken on the clinic's calendar day", () => {
    // 2027-11-03T02:30Z is still 2 November in Santiago (UTC−3 in summer).
    const lateOnTheSecond = backupFileName("diario", at("2027-11-03T02:30:00Z"), "tar.gz");
    expect(dailyBackupDue([lateOnTheSecond], at("2027-11-03T02:59:00Z"))).toBe(false);
    expect(dailyBackupDue([lateOnTheSecond], at("2027-11-03T03:01:00Z"))).toBe(true);
    expect(dailyBackupDue([], at("2027-11-03T12:00:00Z"))).toBe(true);
  });

  it("does not count a manual backup as the day's", () => {
    const manual = backupFileName("manual", at("2027-11-03T12:00:00Z"), "tar.gz");
    expect(dailyBackupDue([manual], at("2027-11-03T13:00:00Z"))).toBe(true);
  });
});
