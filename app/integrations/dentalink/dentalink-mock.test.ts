import { describe, expect, it } from "vitest";
import { createDentalinkSimulator } from "./dentalink-mock";
import { createMemoryMockStore } from "./dentalink-mock-store";

const ORIGIN = "https://dentalink.test";

function simulator(pageSize?: number) {
  return createDentalinkSimulator({ store: createMemoryMockStore(), pageSize });
}

function get(path: string, q?: unknown) {
  const url = new URL(`${ORIGIN}/api/v1${path}`);
  if (q !== undefined) url.searchParams.set("q", typeof q === "string" ? q : JSON.stringify(q));
  return { method: "GET", url, body: undefined };
}

function post(path: string, body: unknown) {
  return { method: "POST", url: new URL(`${ORIGIN}/api/v1${path}`), body };
}

function ids(answer: { body: unknown }) {
  return (answer.body as { data: Array<{ id: unknown }> }).data.map((row) => row.id);
}

describe("the simulator's q filter", () => {
  it("supports eq (case-insensitive), neq, lk and arrays of conditions", async () => {
    const api = simulator();
    expect(
      ids(await api.handle(get("/pacientes", { email: { eq: "MARTIN.RIVAS@correo.example" } }))),
    ).toEqual([1002]);
    expect(ids(await api.handle(get("/pacientes", { nombre: { lk: "tali" } })))).toEqual([1001]);
    expect(ids(await api.handle(get("/pacientes", { rut: { neq: "12345678-5" } })))).toEqual([
      1002, 1003, 1000,
    ]);
    // Dates compare as AAAA-MM-DD whatever way the record writes them (1001's is DD/MM/AAAA).
    expect(
      ids(
        await api.handle(
          get("/pacientes", { fecha_nacimiento: [{ gte: "1980-01-01" }, { lte: "2000-12-31" }] }),
        ),
      ),
    ).toEqual([1001]);
    expect(ids(await api.handle(get("/sucursales", { habilitada: { eq: "1" } })))).toEqual([1, 2]);
  });

  it("answers 400 to malformed JSON and to an unknown operator", async () => {
    const api = simulator();
    expect(await api.handle(get("/pacientes", "{rut:"))).toEqual({
      status: 400,
      body: { error: { message: "El parámetro q no es un JSON válido" } },
    });
    expect((await api.handle(get("/pacientes", { rut: { like: "1" } }))).status).toBe(400);
  });
});

describe("the simulator's pages and routes", () => {
  it("pages with opaque cursors and absolute next links on the request's origin", async () => {
    const api = simulator(4);
    const first = await api.handle(get("/citas/estados"));
    const next = (first.body as { links: { next: string } }).links.next;
    expect(next.startsWith(`${ORIGIN}/api/v1/citas/estados?cursor=`)).toBe(true);
    const second = await api.handle({ method: "GET", url: new URL(next), body: undefined });
    expect(ids(second)).toEqual([1, 9]);
    expect((second.body as { links?: unknown }).links).toBeUndefined();
    expect((await api.handle(get("/citas/estados?cursor=bm9wZQ"))).status).toBe(400);
  });

  it("answers 404 for unknown resources and patients, 405 for unsupported methods", async () => {
    const api = simulator();
    expect((await api.handle(get("/facturas"))).status).toBe(404);
    expect((await api.handle(get("/pacientes/42/citas"))).status).toBe(404);
    expect(
      (await api.handle({ method: "DELETE", url: new URL(`${ORIGIN}/api/v1/pacientes`), body: undefined }))
        .status,
    ).toBe(405);
  });

  it("refuses a patient without apellidos and an appointment with a bad date", async () => {
    const api = simulator();
    expect((await api.handle(post("/pacientes", { nombre: "Ana" }))).status).toBe(400);
    const bad = await api.handle(
      post("/citas", {
        id_paciente: 1001,
        id_dentista: "dr-vidal",
        id_sucursal: 1,
        fecha: "01/12/2026",
        hora_inicio: "10:00",
      }),
    );
    expect(bad).toEqual({ status: 400, body: { error: { message: "Campos inválidos: fecha" } } });
    const closedBranch = await api.handle(
      post("/citas", {
        id_paciente: 1001,
        id_dentista: "dr-vidal",
        id_sucursal: 3,
        fecha: "2026-12-01",
        hora_inicio: "10:00",
      }),
    );
    expect(closedBranch.status).toBe(400);
  });
});
