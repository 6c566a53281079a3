import { formatRut, rutCheckDigit } from "~/domain/rut";
import type { MemoryMockStore } from "~/integrations/dentalink/dentalink-mock-store";
import { uniqueEmail, uniquePhone } from "./clients";

export interface FreshPatient {
  id: number;
  /** As typed in the form: "12.345.678-5". */
  rut: string;
  name: string;
  phone?: string;
  email?: string;
}

/**
 * A Dentalink patient of the mock nobody else uses (random id, RUT and contact), so that binding it never meets
 * another test's binding of the same patient.
 */
export async function freshPatient(
  store: MemoryMockStore,
  contact: { mobile?: boolean; email?: boolean },
  name = "Paciente",
): Promise<FreshPatient> {
  const id = 200_000 + Math.floor(Math.random() * 700_000);
  const body = String(30_000_000 + Math.floor(Math.random() * 19_999_999));
  const phone = contact.mobile ? uniquePhone() : undefined;
  const email = contact.email ? uniqueEmail("ficha") : undefined;
  await store.savePatient({
    id,
    rut: `${body}-${rutCheckDigit(body)}`,
    nombre: name,
    apellidos: "Prueba",
    ...(phone ? { celular: phone } : {}),
    ...(email ? { email } : {}),
  });
  return { id, rut: formatRut(`${body}${rutCheckDigit(body)}`), name, phone, email };
}
