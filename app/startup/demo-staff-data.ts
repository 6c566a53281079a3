import { leadLevelLabels, leadSourceLabels, treatmentLabels, type LeadSource } from "~/domain/lead-labels";
import { advisorLeadMessage, patientLeadMessage } from "~/domain/lead-messages";
import { stageRanks, type LeadStatus, type LostReason } from "~/domain/lead-pipeline";
import { scoreLead, type Budget, type LeadLevel, type Treatment, type Urgency } from "~/domain/lead-scoring";
import type { WhatsAppMessageStatus } from "~/domain/whatsapp-message-status";

/**
 * The demo's staff side (issue 24, item 12b): a few hundred leads over the last 90 days with their contacts, notes,
 * assignments and status history, the WhatsApp messages they caused, a handful of chat conversations (one waiting
 * for a person) and Dentalink syncs, so the Overview, the lead panel, the period comparison, the six Analytics
 * charts, the WhatsApp log, the inbox and the Dentalink tab all show something. Pure and deterministic: the same
 * seed gives the same people, ids and shape; every instant is fixed relative to `now`. Only demo mode writes it
 * (`demo-staff-seed.server.ts`). Names are common Chilean ones; e-mails are @ejemplo.cl and phones +56 9 0000 xxxx,
 * a range no Chilean operator hands out, so nobody real is contacted.
 */

export const DEMO_STAFF_SEED = 20_261_127;
export const DEMO_LEAD_COUNT = 320;
export const DEMO_DAYS = 90;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function weighted<T extends string>(random: Random, weights: Readonly<Record<T, number>>): T {
  const entries = Object.entries(weights) as Array<[T, number]>;
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries.at(-1)![0];
}

const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

/** A version-4-shaped UUID from the PRNG: stable ids make a second seed a no-op (`on conflict do nothing`). */
function uuidFrom(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const firstNames = [
  "Sofía",
  "Martina",
  "Florencia",
  "Isidora",
  "Antonella",
  "Agustina",
  "Emilia",
  "Josefa",
  "Trinidad",
  "Catalina",
  "Constanza",
  "Francisca",
  "Javiera",
  "Fernanda",
  "Valentina",
  "Camila",
  "Daniela",
  "Paula",
  "Carolina",
  "Macarena",
  "Benjamín",
  "Vicente",
  "Martín",
  "Matías",
  "Joaquín",
  "Agustín",
  "Cristóbal",
  "Maximiliano",
  "Tomás",
  "Sebastián",
  "Felipe",
  "Diego",
  "Nicolás",
  "Ignacio",
  "Gonzalo",
  "Rodrigo",
  "Claudio",
  "Patricio",
  "Jorge",
  "Luis",
  "María José",
  "Ana María",
  "Juan Pablo",
  "José Tomás",
  "Rosa",
  "Gloria",
  "Mónica",
  "Verónica",
  "Héctor",
  "Raúl",
] as const;

const lastNames = [
  "González",
  "Muñoz",
  "Rojas",
  "Díaz",
  "Pérez",
  "Soto",
  "Contreras",
  "Silva",
  "Martínez",
  "Sepúlveda",
  "Morales",
  "Rodríguez",
  "López",
  "Fuentes",
  "Hernández",
  "Torres",
  "Araya",
  "Flores",
  "Espinoza",
  "Valenzuela",
  "Castillo",
  "Tapia",
  "Reyes",
  "Gutiérrez",
  "Castro",
  "Pizarro",
  "Álvarez",
  "Vásquez",
  "Sánchez",
  "Fernández",
  "Ramírez",
  "Carrasco",
  "Gómez",
  "Cortés",
  "Herrera",
  "Núñez",
  "Jara",
  "Vergara",
  "Rivera",
  "Figueroa",
] as const;

const messagesByTreatment: Record<Treatment, readonly string[]> = {
  implantes: [
    "Me falta una muela hace años y quiero saber si puedo ponerme un implante.",
    "Tengo un puente antiguo que se movió. ¿Me conviene un implante?",
    "Quiero cotizar implantes para dos piezas de abajo.",
    "Uso prótesis removible y me interesa algo fijo.",
    "",
  ],
  estetica: [
    "Quiero blanquearme los dientes antes de mi matrimonio en marzo.",
    "Me interesan las carillas para los dientes de adelante.",
    "¿Hacen armonización facial? Quisiera una evaluación.",
    "Tengo una pieza quebrada adelante y me gustaría arreglarla.",
    "",
  ],
  ortodoncia: [
    "Consulto por alineadores invisibles para mi hija de 15 años.",
    "Usé frenillos de chica y se me volvieron a mover los dientes.",
    "¿Cuánto dura un tratamiento de ortodoncia para adultos?",
    "Quiero saber si aceptan pago en cuotas para brackets.",
    "",
  ],
  evaluacion: [
    "Hace tiempo que no voy al dentista y quiero una revisión completa.",
    "Me sangran las encías al cepillarme.",
    "Necesito una limpieza y un control.",
    "Tengo sensibilidad al frío en un lado.",
    "",
  ],
};

const notes = [
  "Llamé y no contestó; le dejé un mensaje por WhatsApp.",
  "Prefiere que la llamen después de las 17:00.",
  "Pidió el presupuesto por correo; se lo envié.",
  "Consulta si aceptamos su isapre; le expliqué el reembolso.",
  "Quiere venir un sábado; le ofrecí la disponibilidad.",
  "Interesado en pagar en cuotas sin interés.",
  "Viene recomendado por un paciente de la clínica.",
  "Le envié la guía gratuita del tratamiento.",
  "Pidió hablar con la doctora antes de decidir.",
  "Confirmó que vendrá a la evaluación con sus radiografías.",
] as const;

const sourceWeights: Record<LeadSource, number> = { web: 42, asistente: 20, whatsapp: 22, social: 16 };
const treatmentWeights: Record<Treatment, number> = {
  implantes: 30,
  estetica: 24,
  ortodoncia: 26,
  evaluacion: 20,
};
const urgencyWeights: Record<Urgency, number> = { inmediato: 22, "1-mes": 30, "3-meses": 24, evaluando: 24 };
const budgetWeights: Record<Budget, number> = { alto: 18, medio: 34, bajo: 20, consultar: 28 };

/** Where a lead of each level ends up (hot leads move further). */
const fateWeights: Record<LeadLevel, Record<LeadStatus, number>> = {
  hot: { new: 8, contacted: 14, qualified: 16, scheduled: 18, converted: 28, lost: 16 },
  warm: { new: 12, contacted: 22, qualified: 16, scheduled: 12, converted: 16, lost: 22 },
  cold: { new: 18, contacted: 26, qualified: 10, scheduled: 6, converted: 8, lost: 32 },
};

/** Minutes from the request to the first contact, by level: the hot ones are called first. */
const responseMinutes: Record<LeadLevel, [number, number]> = {
  hot: [4, 90],
  warm: [20, 480],
  cold: [90, 3_600],
};

const lostReasonWeights: Record<LostReason, number> = {
  "no-responde": 34,
  "otra-clinica": 18,
  precio: 24,
  "no-califica": 10,
  duplicado: 4,
  otro: 10,
};

const openPath: readonly LeadStatus[] = ["new", "contacted", "qualified", "scheduled", "converted"];

export interface DemoLeadRow {
  id: string;
  submissionId: string;
  name: string;
  phone: string;
  email: string | null;
  treatment: Treatment;
  urgency: Urgency;
  budget: Budget;
  message: string;
  score: number;
  level: LeadLevel;
  reasons: string[];
  status: LeadStatus;
  source: LeadSource;
  consentAt: Date;
  createdAt: Date;
  updatedAt: Date;
  firstContactAt: Date | null;
  lastContactAt: Date | null;
  assignedTo: string | null;
  lostReason: LostReason | null;
  furthestStage: number;
}

export interface DemoHistoryRow {
  id: string;
  leadId: string;
  kind: "status" | "note" | "assignment";
  text: string;
  actorId: string | null;
  details: Record<string, unknown>;
  at: Date;
}

export interface DemoWhatsAppRow {
  id: string;
  purpose: "lead-advisor" | "lead-patient";
  leadId: string;
  toPhone: string;
  kind: "text";
  text: string;
  testMode: boolean;
  providerMessageId: string | null;
  status: WhatsAppMessageStatus;
  error: string | null;
  createdAt: Date;
  acceptedAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
}

export interface DemoChatGuestRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  browserKeyHash: string;
  createdAt: Date;
}

export interface DemoChatRoomRow {
  id: string;
  guestId: string;
  status: "bot" | "pending_human" | "open" | "resolved";
  handoffReason: string | null;
  handoffSummary: string | null;
  handoffAt: Date | null;
  handoffUrgent: boolean;
  assignedTo: string | null;
  aiConsentAt: Date;
  lastMessageAt: Date;
  createdAt: Date;
}

export interface DemoChatMessageRow {
  id: string;
  roomId: string;
  author: "guest" | "agent" | "staff" | "system";
  staffUserId: string | null;
  content: string;
  createdAt: Date;
}

export interface DemoSyncRow {
  id: string;
  submissionId: string;
  actorId: string | null;
  leadId: string;
  request: Record<string, unknown>;
  outcome: "success" | "failed";
  patientId: string | null;
  patientReused: boolean | null;
  matchedBy: string | null;
  appointmentId: string | null;
  message: string;
  errors: string[];
  errorDetail: string | null;
  createdAt: Date;
  finishedAt: Date;
}

export interface DemoStaffData {
  leads: DemoLeadRow[];
  history: DemoHistoryRow[];
  whatsApp: DemoWhatsAppRow[];
  chatGuests: DemoChatGuestRow[];
  chatRooms: DemoChatRoomRow[];
  chatMessages: DemoChatMessageRow[];
  syncs: DemoSyncRow[];
}

export interface DemoStaffInput {
  now: Date;
  /** The asesores who own leads (round-robin by creation, as new leads are given). */
  asesorIds: readonly string[];
  /** Who made the Dentalink syncs and took a chat conversation (an asesor or an admin). */
  staffIds: readonly string[];
  clinic: { name: string; hours: string; whatsAppNumber: string };
  seed?: number;
  count?: number;
}

/** "José Tomás Núñez" → "jose.tomas.nunez": the @ejemplo.cl address's local part. */
function emailLocal(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z]+/g, ".")
    .replace(/^\.+|\.+$/g, "");
}

/** +56 9 0000 0001 …: Chilean mobile format, in a block no operator assigns. */
export function demoPhone(index: number): string {
  return `+5690000${String(index + 1).padStart(4, "0")}`;
}

/** The leads' ids come from a stream of their own, so the first one is known without generating the rest. */
const idStream = (seed: number) => seededRandom((seed ^ 0x5bd1e995) >>> 0);

/** The first demo lead's submission id: a database that has it holds the demo's staff data already. */
export function demoStaffMarker(seed = DEMO_STAFF_SEED): string {
  const ids = idStream(seed);
  uuidFrom(ids);
  return uuidFrom(ids);
}

export function generateDemoStaffData(input: DemoStaffInput): DemoStaffData {
  const seed = input.seed ?? DEMO_STAFF_SEED;
  const random = seededRandom(seed);
  const leadIds = idStream(seed);
  const now = input.now.getTime();
  const count = input.count ?? DEMO_LEAD_COUNT;
  const leads: DemoLeadRow[] = [];
  const history: DemoHistoryRow[] = [];
  const whatsApp: DemoWhatsAppRow[] = [];
  const syncs: DemoSyncRow[] = [];

  // Ages first, sorted oldest first, so assignments go round-robin in creation order. Skewed towards the recent
  // weeks (a clinic whose marketing is working), never in the last 10 minutes.
  const ages = Array.from(
    { length: count },
    () => 10 * MINUTE + Math.floor(random() ** 1.25 * (DEMO_DAYS * DAY - 20 * MINUTE)),
  );
  ages.sort((a, b) => b - a);

  ages.forEach((age, index) => {
    const createdAt = new Date(now - age);
    const first = pick(random, firstNames);
    const last = pick(random, lastNames);
    const second = pick(random, lastNames);
    const name = `${first} ${last}`;
    const treatment = weighted(random, treatmentWeights);
    const urgency = weighted(random, urgencyWeights);
    const budget = weighted(random, budgetWeights);
    const source = weighted(random, sourceWeights);
    const message = pick(random, messagesByTreatment[treatment]);
    const phone = demoPhone(index);
    const email =
      random() < 0.78
        ? `${emailLocal(`${first} ${last} ${second}`)}${index % 7 === 0 ? index : ""}@ejemplo.cl`
        : null;
    const scored = scoreLead({ treatment, urgency, budget, phone, email, message });
    const id = uuidFrom(leadIds);
    const submissionId = uuidFrom(leadIds);
    // Round-robin among the asesores; a few old lost or unanswered leads were never taken.
    const assignedTo =
      input.asesorIds.length === 0 || random() < 0.06
        ? null
        : input.asesorIds[index % input.asesorIds.length]!;

    let status: LeadStatus = weighted(random, fateWeights[scored.level]);
    // Leads of the last day are still at the start of the pipeline.
    if (age < DAY && stageRanks[status] > 1) status = random() < 0.5 ? "new" : "contacted";
    if (status === "lost" && age < 2 * DAY) status = "contacted";

    const [fastest, slowest] = responseMinutes[scored.level];
    const wantsContact = status !== "new" && !(status === "lost" && random() < 0.3);
    let firstContactAt: Date | null = wantsContact
      ? new Date(createdAt.getTime() + between(random, fastest, slowest) * MINUTE)
      : null;
    if (firstContactAt && firstContactAt.getTime() > now - 5 * MINUTE) {
      firstContactAt = null;
      status = "new";
    }

    // The steps the lead went through, each later than the one before, all before now.
    // A lost lead nobody reached was lost straight from 'new'.
    const path: LeadStatus[] =
      status === "lost"
        ? [...(firstContactAt ? openPath.slice(1, 2 + between(random, 0, 1)) : []), "lost"]
        : openPath.slice(1, openPath.indexOf(status) + 1);
    const stepTimes: Date[] = [];
    let cursor = firstContactAt?.getTime() ?? createdAt.getTime() + between(random, 30, 600) * MINUTE;
    for (let step = 0; step < path.length; step++) {
      if (step > 0) cursor += between(random, 2, 96) * HOUR;
      stepTimes.push(new Date(Math.min(cursor, now - (path.length - step) * MINUTE)));
    }
    const lostReason = status === "lost" ? weighted(random, lostReasonWeights) : null;
    const furthestStage = Math.max(
      0,
      ...path.filter((step) => step !== "lost").map((step) => stageRanks[step]),
      firstContactAt ? 1 : 0,
    );
    const lastTouch = stepTimes.at(-1) ?? createdAt;
    const lastContactAt = firstContactAt
      ? new Date(
          Math.max(
            firstContactAt.getTime(),
            ...path.flatMap((step, i) =>
              step === "contacted" || step === "scheduled" ? [stepTimes[i]!.getTime()] : [],
            ),
          ),
        )
      : null;

    leads.push({
      id,
      submissionId,
      name,
      phone,
      email,
      treatment,
      urgency,
      budget,
      message,
      ...scored,
      status,
      source,
      consentAt: createdAt,
      createdAt,
      updatedAt: lastTouch,
      firstContactAt,
      lastContactAt,
      assignedTo,
      lostReason,
      furthestStage,
    });

    if (assignedTo) {
      history.push({
        id: uuidFrom(random),
        leadId: id,
        kind: "assignment",
        text: "",
        actorId: null,
        details: { from: null, to: assignedTo, reason: "demo" },
        at: createdAt,
      });
    }
    let from: LeadStatus = "new";
    path.forEach((to, step) => {
      history.push({
        id: uuidFrom(random),
        leadId: id,
        kind: "status",
        text: "",
        actorId: assignedTo,
        details: { from, to, ...(to === "lost" ? { reason: lostReason } : {}) },
        at: stepTimes[step]!,
      });
      from = to;
    });
    // Notes on about half of the leads someone worked on.
    if (assignedTo && status !== "new" && random() < 0.55) {
      const noteCount = between(random, 1, 2);
      for (let n = 0; n < noteCount; n++) {
        const at = new Date(
          Math.min(
            (firstContactAt ?? createdAt).getTime() + between(random, 5, 72 * 60) * MINUTE,
            now - MINUTE,
          ),
        );
        history.push({
          id: uuidFrom(random),
          leadId: id,
          kind: "note",
          text: pick(random, notes),
          actorId: assignedTo,
          details: {},
          at,
        });
      }
    }

    // The two WhatsApp messages of a new lead (advisor notice, patient confirmation) and what became of them.
    const facts = {
      clinicName: input.clinic.name,
      clinicHours: input.clinic.hours,
      name,
      phone,
      treatment: treatmentLabels[treatment],
      level: scored.level,
      levelLabel: leadLevelLabels[scored.level],
      score: scored.score,
      source: leadSourceLabels[source],
    };
    for (const purpose of ["lead-advisor", "lead-patient"] as const) {
      const sentAt = new Date(createdAt.getTime() + between(random, 2, 40) * 1_000);
      const roll = random();
      const messageStatus: WhatsAppMessageStatus =
        roll < 0.05 ? "failed" : roll < 0.15 ? "accepted" : roll < 0.5 ? "delivered" : "read";
      const accepted = new Date(sentAt.getTime() + between(random, 1, 5) * 1_000);
      const delivered =
        messageStatus === "delivered" || messageStatus === "read"
          ? new Date(accepted.getTime() + between(random, 2, 90) * 1_000)
          : null;
      whatsApp.push({
        id: uuidFrom(random),
        purpose,
        leadId: id,
        toPhone: (purpose === "lead-advisor" ? input.clinic.whatsAppNumber : phone).replace(/\D/g, ""),
        kind: "text",
        text: purpose === "lead-advisor" ? advisorLeadMessage(facts) : patientLeadMessage(facts),
        testMode: true,
        providerMessageId: `demo-${uuidFrom(random)}`,
        status: messageStatus,
        error: messageStatus === "failed" ? "EC_UNDELIVERABLE: el número no tiene WhatsApp" : null,
        createdAt: sentAt,
        acceptedAt: accepted,
        deliveredAt: delivered,
        readAt:
          messageStatus === "read" && delivered
            ? new Date(Math.min(delivered.getTime() + between(random, 1, 240) * MINUTE, now))
            : null,
        failedAt:
          messageStatus === "failed" ? new Date(sentAt.getTime() + between(random, 5, 60) * 1_000) : null,
      });
    }

    // Leads booked through the Dentalink tab: most synced, a few failed for a vendor reason.
    const scheduledAt = path.indexOf("scheduled");
    if (scheduledAt >= 0 && random() < 0.85) {
      const at = stepTimes[scheduledAt]!;
      const failed = random() < 0.12;
      const patientId = String(between(random, 1200, 9800));
      syncs.push({
        id: uuidFrom(random),
        submissionId: uuidFrom(random),
        actorId: assignedTo ?? input.staffIds[0] ?? null,
        leadId: id,
        // As the sync tab stores it (no medical history text, only whether given); no RUT in the demo.
        request: {
          firstName: first,
          lastName: last,
          rut: null,
          email,
          phone,
          birthDate: null,
          city: "Santiago",
          treatmentType: treatment === "evaluacion" ? "consulta" : treatment,
          appointmentDate: new Date(at.getTime() + between(random, 2, 10) * DAY).toISOString().slice(0, 10),
          appointmentTime: pick(random, ["09:30", "10:00", "11:30", "15:00", "16:30"]),
          dentistId: pick(random, ["dr-morales", "dr-vidal", "dr-araya", "dr-campos"]),
          insuranceProvider: null,
          hasAddress: false,
          hasEmergencyContact: false,
          hasMedicalHistory: random() < 0.3,
          hasNotes: false,
        },
        outcome: failed ? "failed" : "success",
        patientId: failed ? null : patientId,
        patientReused: failed ? null : random() < 0.2,
        matchedBy: failed ? null : "rut",
        appointmentId: failed ? null : String(between(random, 40_000, 99_000)),
        message: failed
          ? "Dentalink rechazó la cita: el horario ya no está disponible."
          : "Paciente y cita creados en Dentalink.",
        errors: failed ? ["El horario elegido ya no está disponible en la agenda."] : [],
        errorDetail: failed ? "dentalink 409 conflict" : null,
        createdAt: new Date(at.getTime() - 3 * 1_000),
        finishedAt: at,
      });
    }
  });

  const chat = demoChats(random, input);
  return { leads, history, whatsApp, syncs, ...chat };
}

interface ChatScript {
  firstName: string;
  lastName: string;
  minutesAgo: number;
  status: DemoChatRoomRow["status"];
  urgent?: boolean;
  handoffReason?: string;
  lines: ReadonlyArray<[DemoChatMessageRow["author"], string]>;
}

/** A handful of inbox conversations: one waiting for a person, one taken by staff, the agent's and a resolved one. */
const chatScripts: readonly ChatScript[] = [
  {
    firstName: "Paula",
    lastName: "Herrera",
    minutesAgo: 12,
    status: "pending_human",
    handoffReason: "El paciente pidió hablar con una persona",
    lines: [
      ["guest", "Hola, quiero saber si puedo pagar un implante en cuotas."],
      [
        "agent",
        "¡Hola! Sí, ofrecemos pago en cuotas. ¿Quieres que te cuente las opciones de financiamiento?",
      ],
      ["guest", "Prefiero hablar con alguien de la clínica, por favor."],
      ["system", "El paciente pidió hablar con una persona. Una persona del equipo te responderá pronto."],
    ],
  },
  {
    firstName: "Diego",
    lastName: "Carrasco",
    minutesAgo: 55,
    status: "open",
    handoffReason: "El paciente pidió hablar con una persona",
    lines: [
      ["guest", "Buenas tardes, necesito cambiar la hora de mi evaluación."],
      ["agent", "Puedo ayudarte a reprogramar desde Mis Citas, o derivarte con el equipo."],
      ["guest", "Con el equipo, gracias."],
      ["system", "El paciente pidió hablar con una persona. Una persona del equipo te responderá pronto."],
      ["staff", "Hola Diego, soy del equipo de la clínica. ¿Qué día te acomoda?"],
      ["guest", "El jueves en la tarde, si se puede."],
    ],
  },
  {
    firstName: "Antonella",
    lastName: "Tapia",
    minutesAgo: 140,
    status: "bot",
    lines: [
      ["guest", "¿Cuánto dura un blanqueamiento?"],
      [
        "agent",
        "Un blanqueamiento en clínica dura alrededor de una hora, y el resultado se mantiene entre uno y dos años con buenos cuidados.",
      ],
      ["guest", "Gracias, lo voy a pensar."],
    ],
  },
  {
    firstName: "Jorge",
    lastName: "Núñez",
    minutesAgo: 26 * 60,
    status: "resolved",
    handoffReason: "El paciente pidió hablar con una persona",
    lines: [
      ["guest", "Hola, ¿atienden con Fonasa?"],
      [
        "agent",
        "Atendemos de forma particular; te entregamos los documentos para que pidas el reembolso que corresponda.",
      ],
      ["guest", "¿Me pueden llamar para explicarme?"],
      ["system", "El paciente pidió hablar con una persona. Una persona del equipo te responderá pronto."],
      ["staff", "Hola Jorge, te llamamos recién y quedó todo claro. ¡Que estés bien!"],
    ],
  },
  {
    firstName: "Trinidad",
    lastName: "Vergara",
    minutesAgo: 3 * 24 * 60,
    status: "resolved",
    lines: [
      ["guest", "¿Dónde queda la clínica?"],
      ["agent", "Estamos en Av. Providencia 1234, piso 18, a pasos del metro Manuel Montt."],
    ],
  },
];

function demoChats(random: Random, input: DemoStaffInput) {
  const now = input.now.getTime();
  const staff = input.staffIds[0] ?? null;
  const chatGuests: DemoChatGuestRow[] = [];
  const chatRooms: DemoChatRoomRow[] = [];
  const chatMessages: DemoChatMessageRow[] = [];
  chatScripts.forEach((script, index) => {
    const guestId = uuidFrom(random);
    const roomId = uuidFrom(random);
    const startedAt = now - script.minutesAgo * MINUTE - script.lines.length * 2 * MINUTE;
    // No browser holds this key (it is not a SHA-256 of any secret handed out): nobody can resume these chats.
    chatGuests.push({
      id: guestId,
      firstName: script.firstName,
      lastName: script.lastName,
      email: `${emailLocal(`${script.firstName} ${script.lastName}`)}@ejemplo.cl`,
      phone: demoPhone(9_000 + index),
      browserKeyHash: `demo-${guestId}`,
      createdAt: new Date(startedAt),
    });
    let at = startedAt;
    let handoffAt: Date | null = null;
    for (const [author, content] of script.lines) {
      at += between(random, 20, 110) * 1_000;
      if (author === "system" && !handoffAt) handoffAt = new Date(at);
      chatMessages.push({
        id: uuidFrom(random),
        roomId,
        author,
        staffUserId: author === "staff" ? staff : null,
        content,
        createdAt: new Date(at),
      });
    }
    chatRooms.push({
      id: roomId,
      guestId,
      status: script.status,
      handoffReason: script.handoffReason ?? null,
      handoffSummary: script.handoffReason ? `${script.firstName} escribió: «${script.lines[0]![1]}»` : null,
      handoffAt,
      handoffUrgent: script.urgent ?? false,
      assignedTo:
        script.status === "open" || (script.status === "resolved" && script.handoffReason) ? staff : null,
      aiConsentAt: new Date(startedAt),
      lastMessageAt: new Date(at),
      createdAt: new Date(startedAt),
    });
  });
  return { chatGuests, chatRooms, chatMessages };
}
