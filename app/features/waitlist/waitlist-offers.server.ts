import { dentistDisplayName } from "~/domain/dentist-name";
import type { Database } from "~/db/client.server";
import { isLiveAppointment } from "~/domain/appointment-status";
import { clinicDate, clinicTime } from "~/domain/clinic-time";
import { formatClinicTime, formatDateWithWeekday } from "~/domain/format";
import { slotTimes, workingBlocks, type ScheduleBlock } from "~/domain/slots";
import {
  entryMatchesSlot,
  isFarEnoughToOffer,
  nextBatch,
  nextBatchAt,
  offerExpiresAt,
  slotOfferDecision,
  WAITLIST_BATCH_SIZE,
  waitlistOfferPath,
  type FreedSlotFacts,
} from "~/domain/waitlist";
import { templateContent } from "~/domain/whatsapp-templates";
import { accountSubject, mayContact } from "~/features/consent/consent-service.server";
import { enqueueSecretEmail } from "~/features/email/email-outbox.server";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { hashActionToken, newActionToken } from "~/features/reminders/action-tokens.server";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import {
  candidateEntries,
  closeSlot,
  dentistAndTreatmentNames,
  dentistBlocks,
  dentistBusyDuring,
  expireEntries,
  insertOffer,
  lockNextDueSlot,
  loseOffersOfSlot,
  patientsBusy,
  scheduleNextBatch,
  type FreedSlotRow,
} from "./waitlist-repository.server";

/** At most this many slots per pass; the next pass (a minute later at most) takes the rest. */
const MAX_SLOTS_PER_PASS = 50;

export interface WaitlistPassOptions {
  /** Where the links point (default: PUBLIC_BASE_URL). */
  baseUrl?: string;
}

export interface WaitlistPass {
  expired: number;
  offered: number;
  closed: number;
}

/**
 * One pass of the waitlist job (ADR 040): entries past their last date become 'vencida'; then every open slot whose
 * batch is due is taken, one per transaction with its row locked (SKIP LOCKED: two instances share the work, never
 * one slot), and either closed (less than two hours away, or an appointment now holds its time) or offered to the
 * next batch of matching entries, each with a single-use link by WhatsApp (with consent) and e-mail, queued in the
 * same transaction. The next batch may go ten minutes later.
 */
export async function runWaitlistPass(
  db: Database,
  now = new Date(),
  options: WaitlistPassOptions = {},
): Promise<WaitlistPass> {
  const baseUrl = (options.baseUrl ?? publicBaseUrl()).replace(/\/+$/, "");
  const pass: WaitlistPass = {
    expired: await expireEntries(db, clinicDate(now), now),
    offered: 0,
    closed: 0,
  };
  for (let index = 0; index < MAX_SLOTS_PER_PASS; index += 1) {
    const outcome = await db.transaction(async (tx) => {
      const slot = await lockNextDueSlot(tx, now);
      if (!slot) return null;
      return offerSlot(tx, slot, now, baseUrl);
    });
    if (outcome === null) break;
    if (outcome === "closed") pass.closed += 1;
    else pass.offered += outcome;
  }
  if (pass.offered > 0 || pass.closed > 0) logger.info(pass, "waitlist pass");
  return pass;
}

/** A locked slot: closed, or its next batch offered. Answers "closed" or how many offers went out. */
async function offerSlot(
  tx: Database,
  slot: FreedSlotRow,
  now: Date,
  baseUrl: string,
): Promise<"closed" | number> {
  const stillFree = !(await dentistBusyDuring(tx, slot.dentistId, slot.startsAt, slot.endsAt));
  const decision = slotOfferDecision(slot, stillFree, now);
  if (!decision.offer) {
    await closeSlot(tx, slot.id, now);
    await loseOffersOfSlot(tx, slot.id);
    return "closed";
  }
  const batch = await nextBatchFor(tx, slot);
  let offered = 0;
  if (batch.length > 0) {
    const named = { ...slot, dentistName: await dentistNameOf(tx, slot.dentistId) };
    for (const entry of batch) {
      if (await offerTo(tx, named, entry, slot.batchesSent + 1, now, baseUrl)) offered += 1;
    }
  }
  await scheduleNextBatch(tx, slot.id, nextBatchAt(now), offered > 0);
  return offered;
}

type Candidate = Awaited<ReturnType<typeof candidateEntries>>[number];

/** Candidates are read a page at a time, in join order, until a batch is full. */
const CANDIDATE_PAGE = 25;

/** The next batch of entries the slot suits, in the order they joined (`entryMatchesSlot`, `nextBatch`). */
export async function nextBatchFor(tx: Database, slot: FreedSlotRow): Promise<Candidate[]> {
  const facts: FreedSlotFacts = {
    dentistId: slot.dentistId,
    startsAt: slot.startsAt,
    endsAt: slot.endsAt,
    date: clinicDate(slot.startsAt),
    time: clinicTime(slot.startsAt),
    freedByPatientId: slot.freedByPatientId,
  };
  let blocks: readonly ScheduleBlock[] | null = null;
  const timesByDuration = new Map<number, string[]>();
  const seenPatients = new Set<string>();
  const matching: Candidate[] = [];
  for (let offset = 0; matching.length < WAITLIST_BATCH_SIZE; offset += CANDIDATE_PAGE) {
    const candidates = await candidateEntries(tx, slot, facts.date, { limit: CANDIDATE_PAGE, offset });
    if (candidates.length === 0) break;
    blocks ??= workingBlocks(await dentistBlocks(tx, slot.dentistId));
    const longest = Math.max(...candidates.map((candidate) => candidate.durationMinutes));
    const busy = await patientsBusy(
      tx,
      [...new Set(candidates.map((candidate) => candidate.patientId))],
      slot.startsAt,
      new Date(slot.startsAt.getTime() + longest * 60_000),
    );
    for (const candidate of candidates) {
      // One offer per patient and slot, for their oldest entry.
      if (seenPatients.has(candidate.patientId)) continue;
      let times = timesByDuration.get(candidate.durationMinutes);
      if (!times) {
        times = slotTimes(facts.date, blocks, candidate.durationMinutes);
        timesByDuration.set(candidate.durationMinutes, times);
      }
      const linkedLive = candidate.linkedStatus !== null && isLiveAppointment(candidate.linkedStatus);
      const matches = entryMatchesSlot(
        { ...candidate, currentStartsAt: linkedLive ? candidate.currentStartsAt : null },
        facts,
        { startTimes: times, patientBusy: busy.filter((row) => row.patientId === candidate.patientId) },
      );
      if (!matches) continue;
      seenPatients.add(candidate.patientId);
      matching.push(candidate);
    }
    if (candidates.length < CANDIDATE_PAGE) break;
  }
  return nextBatch(matching, new Set());
}

/** Whom an offer goes to and what it names. */
export interface OfferRecipient {
  id: string;
  patientId: string;
  firstName: string;
  email: string;
  phone: string | null;
  whatsappOptInAt: Date | null;
  deactivatedAt: Date | null;
  treatmentName: string;
}

/**
 * One offer: its row with the token's hash, and its messages in the same transaction. WhatsApp only with the
 * patient's consent in force (the ledger, ADR 037); the e-mail always (they asked for it on the waitlist).
 */
export async function offerTo(
  tx: Database,
  slot: Pick<FreedSlotRow, "id" | "dentistId" | "startsAt"> & { dentistName: string },
  entry: OfferRecipient,
  batch: number,
  now: Date,
  baseUrl: string,
  sentBy: string | null = null,
): Promise<boolean> {
  if (!isFarEnoughToOffer(slot.startsAt, now)) return false;
  const token = newActionToken();
  const offerId = await insertOffer(tx, {
    slotId: slot.id,
    entryId: entry.id,
    patientId: entry.patientId,
    tokenHash: hashActionToken(token),
    batch,
    sentBy,
    sentAt: now,
    expiresAt: offerExpiresAt(slot.startsAt),
  });
  if (!offerId) return false;
  if (entry.deactivatedAt) return true;
  const url = `${baseUrl}${waitlistOfferPath(token)}`;
  const facts = {
    name: entry.firstName || "paciente",
    treatment: entry.treatmentName,
    dentist: slot.dentistName,
    date: formatDateWithWeekday(clinicDate(slot.startsAt)),
    time: formatClinicTime(slot.startsAt),
  };
  if (entry.phone && entry.whatsappOptInAt) {
    const subject = await accountSubject(tx, entry.patientId);
    if ((await mayContact(tx, subject, "recordatorios_whatsapp", { now })).allowed) {
      try {
        await enqueueWhatsApp(tx, {
          purpose: "appointment-patient",
          to: entry.phone,
          template: templateContent("waitlistOffer", [
            facts.name,
            facts.treatment,
            facts.dentist,
            facts.date,
            facts.time,
            url,
          ]),
          userId: entry.patientId,
          idempotencyKey: `waitlist-offer:${offerId}:whatsapp`,
        });
      } catch (error) {
        if (!(error instanceof WhatsAppInputError)) throw error;
        logger.warn({ offerId }, "waitlist offer: not a WhatsApp number, e-mail only");
      }
    }
  }
  await enqueueSecretEmail(tx, {
    idempotencyKey: `waitlist-offer:${offerId}:email`,
    to: entry.email,
    content: offerEmail(facts, url),
  });
  return true;
}

/** "Dra. Nombre Apellido", as the portal names dentists (`dentistDisplayName`). */
export async function dentistNameOf(tx: Database, dentistId: string) {
  const dentist = await dentistAndTreatmentNames(tx, dentistId);
  return dentist ? dentistDisplayName(dentist) : "la clínica";
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function offerEmail(
  facts: { name: string; treatment: string; dentist: string; date: string; time: string },
  url: string,
) {
  const clinic = clinicFacts();
  const heading = `Hola ${facts.name}, se liberó una hora`;
  const lines = [
    `Se liberó una hora de ${facts.treatment} con ${facts.dentist} el ${facts.date} a las ${facts.time}.`,
    "Te escribimos porque estás en nuestra lista de espera. Se la queda la primera persona que la tome.",
  ];
  return {
    subject: `Se liberó una hora · ${clinic.shortName}`,
    text: [heading, "", ...lines, "", `Tomar esta hora: ${url}`, "", clinic.name].join("\n"),
    html: `<!doctype html><html lang="es-CL"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Tomar esta hora</a></p>
<p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(url)}</p>
<p style="font-size:13px;color:#475569">${escapeHtml(clinic.name)} · ${escapeHtml(clinic.address)}</p>
</body></html>`,
  };
}
