import { dentistDisplayName } from "~/domain/dentist-name";
import type { Database } from "~/db/client.server";
import { matchDentistsByName } from "~/domain/dentist-matching";
import { PermanentDeliveryError } from "~/features/outbox/outbox.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import type { DentalinkDentist } from "~/integrations/dentalink/dentalink-mapping";
import { AppError, postgresErrorCode } from "~/lib/base/errors";
import {
  dentistLink,
  dentistLinks,
  insertNameLinks,
  isPortalDentist,
  linkedTo,
  portalDentists,
  requeueWriteThrough,
  saveAdminLink,
  dentistNames,
} from "./dentalink-dentist-links-repository.server";
import type { DentistLinkView } from "./sync-dto";

/**
 * Which Dentalink agenda each of our dentists books into (ADR 024): a stored link per dentist, filled once by
 * matching normalised full names, and set or cleared by an admin on the Dentalink tab. The write-through books
 * only a linked dentist; an unlinked one is a failure with its reason, never another dentist's agenda.
 */

const fullName = (row: { firstName: string | null; lastName: string | null }) =>
  [row.firstName, row.lastName].filter(Boolean).join(" ");

/** Links by name every dentist of ours that has no link row yet (an admin's choice is never overwritten). */
export async function linkDentistsByName(db: Database, list: readonly DentalinkDentist[]) {
  const [ours, links] = await Promise.all([portalDentists(db), dentistLinks(db)]);
  const known = new Set(links.map((link) => link.dentistId));
  const unlinked = ours.filter((dentist) => !known.has(dentist.id));
  if (unlinked.length === 0) return;
  const taken = new Set(links.flatMap((link) => (link.dentalinkDentistId ? [link.dentalinkDentistId] : [])));
  const pairs = matchDentistsByName(
    unlinked.map((dentist) => ({ id: dentist.id, name: fullName(dentist) })),
    list.map((dentist) => ({ id: dentist.id, name: dentist.name, active: dentist.active })),
    taken,
  );
  await insertNameLinks(db, pairs);
}

/** The tab's table: each dentist of ours, its Dentalink dentist (or why there is none), and who set it. */
export async function loadDentistLinks(
  db: Database,
  list: readonly DentalinkDentist[] | null,
): Promise<DentistLinkView[]> {
  if (list) await linkDentistsByName(db, list);
  const [ours, links] = await Promise.all([portalDentists(db), dentistLinks(db)]);
  const byDentist = new Map(links.map((link) => [link.dentistId, link]));
  return ours.map((dentist) => {
    const link = byDentist.get(dentist.id);
    const linkedId = link?.dentalinkDentistId ?? null;
    const atDentalink = linkedId && list ? list.find((item) => item.id === linkedId) : undefined;
    return {
      dentistId: dentist.id,
      name: dentistDisplayName(dentist),
      dentalinkDentistId: linkedId,
      dentalinkName: atDentalink?.name ?? null,
      source: link ? (link.source === "admin" ? "admin" : "name") : null,
      // Unknown when Dentalink could not be read: the link is shown, not judged.
      problem:
        linkedId === null ? "unlinked" : list && !(atDentalink && atDentalink.active) ? "missing" : null,
    };
  });
}

export function unlinkedDentistMessage(name: string) {
  return (
    `${name} no está vinculado a un dentista de Dentalink, así que la cita no se envió (para no agendarla a ` +
    "otro dentista). Un administrador debe vincularlo en la pestaña Dentalink y luego reintentar."
  );
}

export function missingDentistMessage(name: string, dentalinkDentistId: string) {
  return (
    `${name} está vinculado al dentista ${dentalinkDentistId} de Dentalink, que no existe o no está activo. ` +
    "Un administrador debe corregir el vínculo en la pestaña Dentalink y luego reintentar."
  );
}

/**
 * The Dentalink dentist a booking with our dentist goes to (the write-through). No link (after trying the name
 * match once), a deliberately empty one, or a link to a dentist Dentalink no longer has active: a failure for good
 * with the reason staff see, and nothing is booked.
 */
export async function dentalinkDentistFor(
  db: Database,
  list: readonly DentalinkDentist[],
  dentist: { id: string; name: string },
): Promise<DentalinkDentist> {
  let link = await dentistLink(db, dentist.id);
  if (!link) {
    await linkDentistsByName(db, list);
    link = await dentistLink(db, dentist.id);
  }
  if (!link?.dentalinkDentistId) throw new PermanentDeliveryError(unlinkedDentistMessage(dentist.name));
  const linked = list.find((item) => item.id === link.dentalinkDentistId && item.active);
  if (!linked) {
    throw new PermanentDeliveryError(missingDentistMessage(dentist.name, link.dentalinkDentistId));
  }
  return linked;
}

/**
 * An admin links one of our dentists to a Dentalink dentist, or leaves it unlinked (`null`). The Dentalink dentist
 * must be an active one of `/dentistas` and not another dentist's already. Audited.
 */
export async function setDentistLink(
  db: Database,
  input: {
    dentistId: string;
    dentalinkDentistId: string | null;
    list: readonly DentalinkDentist[];
    actor: { id: string; roles: readonly string[]; ip: string | null };
  },
) {
  if (!(await isPortalDentist(db, input.dentistId))) {
    throw new AppError("NOT_FOUND", "No encontramos ese dentista.");
  }
  if (input.dentalinkDentistId !== null) {
    const target = input.list.find((item) => item.id === input.dentalinkDentistId && item.active);
    if (!target) {
      throw new AppError("VALIDATION", "Ese dentista no existe en Dentalink o no está activo.");
    }
    const owner = await linkedTo(db, input.dentalinkDentistId);
    if (owner && owner !== input.dentistId) {
      const names = await dentistNames(db, [owner]);
      throw new AppError(
        "CONFLICT",
        `${target.name} ya está vinculado a ${names.get(owner) ?? "otro dentista"}. Desvincúlelo primero.`,
      );
    }
  }
  const previous = (await dentistLink(db, input.dentistId))?.dentalinkDentistId ?? null;
  await saveAdminLink(db, {
    dentistId: input.dentistId,
    dentalinkDentistId: input.dentalinkDentistId,
    actor: input.actor,
    previous,
  });
}

/** The tab's "link" action: reads Dentalink's dentists, then `setDentistLink`. */
export async function changeDentistLink(
  db: Database,
  input: {
    client: DentalinkClient;
    dentistId: string;
    dentalinkDentistId: string | null;
    actor: { id: string; roles: readonly string[]; ip: string | null };
  },
) {
  let list: readonly DentalinkDentist[];
  try {
    list = await input.client.listDentists();
  } catch {
    throw new AppError("UPSTREAM_FAILED", "No pudimos leer los dentistas de Dentalink. Intente de nuevo.");
  }
  try {
    await setDentistLink(db, { ...input, list });
  } catch (error) {
    // Two admins linking the same Dentalink dentist at once: the unique index refuses the second.
    if (postgresErrorCode(error) === "23505") {
      throw new AppError("CONFLICT", "Ese dentista de Dentalink ya está vinculado a otro dentista.");
    }
    throw error;
  }
}

/** Staff put a failed or waiting write-through back in the queue now (the outbox worker sends it). */
export async function retryWriteThrough(
  db: Database,
  input: { outboxId: string; actor: { id: string; roles: readonly string[]; ip: string | null } },
) {
  if (!(await requeueWriteThrough(db, input.outboxId, input.actor))) {
    throw new AppError("NOT_FOUND", "Ese envío ya no está pendiente de reintento.");
  }
}

/**
 * How Mi Ficha names the dentists of a Dentalink record (issue 24 item 11): by Dentalink dentist id, our name with
 * its recorded title ("Dra. Isidora Campos") for a dentist linked to one of ours, or, read-only, for one whose name
 * is exactly one of our not-yet-linked dentists' (mock mode and a clinic before its first sync have no links). An id
 * absent from the answer keeps the name Dentalink sends. Nothing is written: links are made where bookings are.
 */
export async function namesOfRecordDentists(
  db: Database,
  dentists: ReadonlyArray<{ id: string; name: string | null }>,
): Promise<Map<string, string>> {
  const ids = new Set(dentists.map((dentist) => dentist.id));
  if (ids.size === 0) return new Map();
  const [ours, links] = await Promise.all([portalDentists(db), dentistLinks(db)]);
  const linked = links.filter((link) => link.dentalinkDentistId !== null && ids.has(link.dentalinkDentistId));
  // Linked: named as the user they are linked to (a deactivated dentist's past visits keep the title too).
  const byUser = await dentistNames(
    db,
    linked.map((link) => link.dentistId),
  );
  const names = new Map<string, string>();
  for (const link of linked) {
    const name = byUser.get(link.dentistId);
    if (name && link.dentalinkDentistId) names.set(link.dentalinkDentistId, name);
  }
  const known = new Set(links.map((link) => link.dentistId));
  const taken = new Set(links.flatMap((link) => (link.dentalinkDentistId ? [link.dentalinkDentistId] : [])));
  const unlinked = ours.filter((dentist) => !known.has(dentist.id));
  const pairs = matchDentistsByName(
    unlinked.map((dentist) => ({ id: dentist.id, name: fullName(dentist) })),
    // Once per Dentalink dentist: a name listed twice would read as two dentists sharing it, and match nobody.
    [...new Map(dentists.map((dentist) => [dentist.id, dentist.name])).entries()].flatMap(([id, name]) =>
      name && !names.has(id) ? [{ id, name, active: true }] : [],
    ),
    taken,
  );
  for (const [ourId, dentalinkId] of pairs) {
    const dentist = unlinked.find((item) => item.id === ourId);
    if (dentist) names.set(dentalinkId, dentistDisplayName(dentist));
  }
  return names;
}
