import { describe, expect, it } from "vitest";
import { createDentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { NO_MOCK_DELAYS } from "~/integrations/dentalink/dentalink-mock";
import {
  createMemoryMockStore,
  type DentalinkMockStore,
} from "~/integrations/dentalink/dentalink-mock-store";

// Mock mode (no key, or the placeholder): the same client code answers from deterministic demo data, with the
// spec's delays configurable and zero here, and keeps what is created in its store (the feature's database).

function mockClient(store: DentalinkMockStore = createMemoryMockStore(), apiKey?: string) {
  return createDentalinkClient({ apiKey, mock: { store, delays: NO_MOCK_DELAYS } });
}

/** Everything a sync form and a record page read, from a fresh client. */
async function readDemo() {
  const dentalink = mockClient();
  const found = await dentalink.findPatient({ rut: "12.345.678-5" });
  if (!found) throw new Error("demo patient missing");
  return {
    found,
    dentists: await dentalink.listDentists(),
    branches: await dentalink.listBranches(),
    states: await dentalink.listAppointmentStates(),
    record: await dentalink.getPatientRecord(found.patient.id),
  };
}

describe("mock mode", () => {
  it("is chosen without a key or with the placeholder, and says so in its status", () => {
    expect(mockClient().mode).toBe("mock");
    expect(mockClient(createMemoryMockStore(), "your-dentalink-api-key").status()).toEqual({
      mode: "mock",
      circuit: { state: "closed", failures: 0, openedAt: null },
    });
  });

  it("answers the deterministic demo data, the same every time", async () => {
    const first = await readDemo();
    expect(first.found).toMatchObject({
      matchedBy: "rut",
      patient: { id: "1001", name: "Catalina Soto", birthDate: "1988-03-14" },
    });
    expect(first.dentists.map((dentist) => [dentist.id, dentist.name])).toEqual([
      ["dr-morales", "Andrés Morales"],
      ["dr-vidal", "Fernanda Vidal"],
      ["dr-araya", "Tomás Araya"],
      ["dr-campos", "Isidora Campos"],
    ]);
    expect(first.branches).toHaveLength(3);
    expect(first.states.map((state) => state.kind)).toEqual([
      "scheduled",
      "confirmed",
      "in_progress",
      "completed",
      "cancelled",
      "no_show",
    ]);
    expect(first.record.appointments).toHaveLength(3);
    expect(first.record.payments.map((payment) => payment.amountClp)).toEqual([45000, 360000, 120000]);
    expect(first.record.treatments.map((treatment) => treatment.progress)).toEqual([40, 100]);
    expect(first.record.documents).toHaveLength(2);
    expect(first.record.xrays).toHaveLength(2);
    expect(await readDemo()).toEqual(first);
  });

  it("keeps created patients and appointments in its store, so a second sync reuses them", async () => {
    const store = createMemoryMockStore();
    const input = { firstName: "Rosa", lastName: "Díaz", rut: "15.555.555-2", email: "rosa@correo.example" };
    const first = await mockClient(store).findOrCreatePatient(input);
    expect(first).toMatchObject({ created: true, patient: { id: "1004", rut: "15555555-2" } });
    expect(store.patients).toEqual([
      expect.objectContaining({ id: 1004, nombre: "Rosa", rut: "15555555-2" }),
    ]);

    // Another client over the same store (another request, another instance): found, not created again.
    const again = await mockClient(store).findOrCreatePatient(input);
    expect(again).toMatchObject({ created: false, matchedBy: "rut", patient: { id: "1004" } });
    expect(store.patients).toHaveLength(1);

    const booked = await mockClient(store).createAppointment({
      patientId: "1004",
      dentistId: "dr-araya",
      date: "2026-12-02",
      time: "14:30",
    });
    expect(booked).toMatchObject({ id: "5005", dentist: "Tomás Araya", status: "No confirmado" });
    await expect(
      mockClient(store).createAppointment({
        patientId: "1001",
        dentistId: "dr-araya",
        date: "2026-12-02",
        time: "14:30",
      }),
    ).rejects.toMatchObject({ code: "SLOT_TAKEN", status: 409 });
    expect((await mockClient(store).listAppointments("1004")).map((item) => item.id)).toEqual(["5005"]);

    const cancelled = await mockClient(store).cancelAppointment("5005");
    expect(cancelled.statusKind).toBe("cancelled");
    expect(store.appointments).toEqual([expect.objectContaining({ id: 5005, id_estado: 1 })]);
  });

  it("waits the spec's delays by default (1.5 s for the patient, 1 s per list), through the injected sleep", async () => {
    const waits: number[] = [];
    const dentalink = createDentalinkClient({
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await dentalink.findPatients({ rut: "12345678-5" });
    await dentalink.listPayments("1001");
    await dentalink.listDentists();
    expect(waits).toEqual([1_500, 1_000, 1_000]);
  });

  it("is subject to the client's timeout like the real API", async () => {
    const dentalink = createDentalinkClient({
      timeoutMs: 50,
      retries: 0,
      mock: { delays: { patientMs: 5_000, listMs: 5_000 } },
    });
    await expect(dentalink.listDentists()).rejects.toMatchObject({ code: "TIMEOUT" });
  });
});
