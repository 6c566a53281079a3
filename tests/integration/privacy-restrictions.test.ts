import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { activeRestrictions, addRestriction, endRestrictions } from "~/features/consent/restrictions.server";
import { dataSubject } from "~/features/consent/subject";
import { uniqueEmail } from "../setup/clients";

afterAll(closeDb);

function uniquePhone() {
  return `+569${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

describe("privacy restrictions (objections and blocking)", () => {
  it("a restriction put on an e-mail and a phone is found by either contact, in any case", async () => {
    const db = await getDb();
    const email = uniqueEmail("objeta");
    const phone = uniquePhone();
    await addRestriction(db, {
      kind: "perfilamiento",
      subject: dataSubject({ emails: [email], phones: [phone] }),
    });

    expect(await activeRestrictions(db, dataSubject({ phones: [phone] }), ["perfilamiento"])).toHaveLength(1);
    expect(
      await activeRestrictions(db, dataSubject({ emails: [email.toUpperCase()] }), ["perfilamiento"]),
    ).toHaveLength(1);
    // Another kind, or another person, is not restricted.
    expect(await activeRestrictions(db, dataSubject({ phones: [phone] }), ["marketing"])).toHaveLength(0);
    expect(await activeRestrictions(db, dataSubject({ emails: [uniqueEmail("otra")] }))).toHaveLength(0);
  });

  it("adding the same kind again adds nothing; ending it lifts it from that moment", async () => {
    const db = await getDb();
    const subject = dataSubject({ emails: [uniqueEmail("bloqueo")] });
    const start = new Date("2026-11-01T12:00:00Z");
    await addRestriction(db, { kind: "bloqueo", subject, now: start });
    await addRestriction(db, { kind: "bloqueo", subject, now: start });
    expect(await activeRestrictions(db, subject, ["bloqueo"], start)).toHaveLength(1);

    const end = new Date("2026-11-10T12:00:00Z");
    expect(await endRestrictions(db, { subject, kind: "bloqueo", now: end })).toBe(1);
    expect(await activeRestrictions(db, subject, ["bloqueo"], end)).toHaveLength(0);
    expect(await activeRestrictions(db, subject, ["bloqueo"], new Date("2026-11-05T12:00:00Z"))).toHaveLength(
      1,
    );
  });

  it("an empty subject matches nobody's restrictions and ends none", async () => {
    const db = await getDb();
    await addRestriction(db, { kind: "marketing", subject: dataSubject({ emails: [uniqueEmail("m")] }) });
    const nobody = dataSubject({});
    expect(await activeRestrictions(db, nobody)).toEqual([]);
    expect(await endRestrictions(db, { subject: nobody, kind: "marketing" })).toBe(0);
  });
});
