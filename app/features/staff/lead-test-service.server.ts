import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { formatClinicTime } from "~/domain/format";
import { followUpPromise, scoreLead } from "~/domain/lead-scoring";
import { budgetLabels, leadLevelLabels, treatmentLabels, urgencyLabels } from "~/domain/lead-labels";
import { queueTestLeadMessages } from "~/features/messaging/whatsapp-test-service.server";
import type { LeadTestResult } from "./lead-test-dto";
import { leadTestInputSchema, type LeadTestInput, type WhatsAppTestSend } from "./lead-test-schema";
import { testScenarios, type ScenarioKey } from "./test-scenarios";

/** Scores a test lead with the production rules. Nothing is stored. */
export function scoreTestLead(
  input: LeadTestInput,
  meta: { label: string; expectedScore: number | null; sendFields?: Record<string, string> },
  now = new Date(),
): LeadTestResult {
  const { score, level, reasons } = scoreLead(input);
  return {
    id: randomUUID(),
    label: meta.label,
    name: input.name,
    summary: [
      treatmentLabels[input.treatment],
      urgencyLabels[input.urgency],
      budgetLabels[input.budget],
    ].join(" · "),
    score,
    level,
    levelLabel: leadLevelLabels[level],
    reasons,
    promise: followUpPromise(level),
    expectedScore: meta.expectedScore,
    testedAt: now.toISOString(),
    testedAtLabel: formatClinicTime(now),
    sendFields: meta.sendFields ?? customSendFields(input),
  };
}

/** The custom lead's fields as the WhatsApp card posts them back (validated and scored again on the server). */
function customSendFields(input: LeadTestInput): Record<string, string> {
  return {
    source: "custom",
    name: input.name,
    phone: input.phone,
    email: input.email ?? "",
    age: input.age === null ? "" : String(input.age),
    treatment: input.treatment,
    urgency: input.urgency,
    budget: input.budget,
    message: input.message,
  };
}

/** A predefined scenario goes through the same validation as the custom form. */
export function scoreScenario(key: ScenarioKey, now = new Date()): LeadTestResult {
  const scenario = testScenarios[key];
  const input = leadTestInputSchema.parse(scenario.lead);
  return scoreTestLead(
    input,
    {
      label: scenario.title,
      expectedScore: scenario.expectedScore,
      sendFields: { source: "scenario", scenario: key },
    },
    now,
  );
}

/** The WhatsApp card's send: the test lead scored again here, then its two messages through the outbox. */
export async function sendTestLeadWhatsApp(db: Database, send: WhatsAppTestSend, actorId: string) {
  const input =
    send.source === "scenario" ? leadTestInputSchema.parse(testScenarios[send.scenario].lead) : send;
  const { score, level } = scoreLead(input);
  return queueTestLeadMessages(db, {
    lead: {
      name: input.name,
      phone: input.phone,
      treatmentLabel: treatmentLabels[input.treatment],
      level,
      levelLabel: leadLevelLabels[level],
      score,
    },
    requestedTestMode: send.testMode,
    attemptKey: send.attemptKey,
    actorId,
  });
}
