import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { advisorMessages, users } from "~/db/schema";
import {
  collectSubjectData,
  countSubjectData,
  eraseSubjectData,
  resolveSubject,
} from "~/features/privacy/subject-data.server";
import { uniquePhone } from "../setup/clients";
import { createTestUser, insertLead } from "../setup/factories";

afterAll(closeDb);

describe("a person's data across the tables", () => {
  it("finds an account holder's rows (and their leads by e-mail or phone), exports them without secrets and erases them", async () => {
    const db = await getDb();
    const phone = uniquePhone();
    const user = await createTestUser({ columns: { phone, rut: "12345678-5" } });
    await db.insert(advisorMessages).values({ userId: user.id, role: "user", content: "Me duele una muela" });
    const byEmail = await insertLead({ email: user.email.toUpperCase(), phone: uniquePhone() });
    const byPhone = await insertLead({ email: null, phone });
    const someoneElse = await insertLead({});

    const subject = await resolveSubject(db, { userId: user.id });
    expect(subject.leadIds.toSorted()).toEqual([byEmail.id, byPhone.id].toSorted());

    const counts = await countSubjectData(db, subject);
    expect(counts.find((c) => c.table === "leads")?.rows).toBe(2);
    expect(counts.find((c) => c.table === "advisor_messages")?.rows).toBe(1);

    const data = await collectSubjectData(db, subject);
    const accounts = data.find((d) => d.table === "accounts")!;
    expect(accounts.rows).toHaveLength(1);
    expect(accounts.rows[0]).not.toHaveProperty("password");
    expect(data.find((d) => d.table === "sessions")!.rows[0]).not.toHaveProperty("token");
    expect(JSON.stringify(data)).not.toContain(someoneElse.phone);

    const report = await eraseSubjectData(db, subject);
    expect(report.erased.map((e) => e.table)).toEqual(
      expect.arrayContaining(["advisor_messages", "sessions", "accounts"]),
    );
    expect(report.anonymised.map((e) => e.table)).toEqual(expect.arrayContaining(["leads", "users"]));
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(after!.email).not.toBe(user.email);
    expect(after!.phone).toBeNull();
    expect(after!.erasedAt).not.toBeNull();
    expect(await countSubjectData(db, await resolveSubject(db, { email: user.email }))).toEqual([]);
  });
});
