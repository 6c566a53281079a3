import { describe, expect, it } from "vitest";
import { loggableError, type LoggedError } from "./loggable-error";

/** An error shaped as Drizzle throws a failed query, caused by PostgreSQL's unique violation. */
function failedInsert() {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "leads_phone_key"'), {
    code: "23505",
    constraint: "leads_phone_key",
    table: "leads",
    detail: "Key (phone)=(+56912345678) already exists.",
  });
  const error = new Error(
    'Failed query: insert into "leads" ("name", "phone", "email") values ($1, $2, $3)\nparams: Ana Pérez,+56912345678,ana@example.com',
    { cause },
  );
  return Object.assign(error, { params: ["Ana Pérez", "+56912345678", "ana@example.com"] });
}

describe("loggableError", () => {
  it("keeps the query, codes and names but none of the bound values or the row's detail", () => {
    const logged = loggableError(failedInsert()) as LoggedError;
    const text = JSON.stringify(logged);
    expect(text).not.toContain("+56912345678");
    expect(text).not.toContain("ana@example.com");
    expect(text).not.toContain("Ana Pérez");
    expect(logged.message).toContain('insert into "leads"');
    expect(logged.message).toContain("params: [omitidos]");
    expect(logged.stack).toMatch(/^Error: Failed query: insert into "leads"[\s\S]*\n\s+at /);
    expect(logged.cause).toMatchObject({ code: "23505", constraint: "leads_phone_key", table: "leads" });
  });

  it("leaves an ordinary error as it is", () => {
    const error = new TypeError("Invalid URL");
    expect(loggableError(error)).toMatchObject({
      type: "TypeError",
      message: "Invalid URL",
      stack: error.stack,
    });
  });

  it("keeps a failure text without a query's values, and reduces a thrown non-error object to its type", () => {
    expect(loggableError("HTTP 503 from Dentalink")).toBe("HTTP 503 from Dentalink");
    expect(loggableError("Failed query: select 1\nparams: ana@example.com")).toBe(
      "Failed query: select 1\nparams: [omitidos]",
    );
    expect(loggableError({ email: "ana@example.com" })).toBe("object");
    expect(loggableError(null)).toBe("null");
  });
});
