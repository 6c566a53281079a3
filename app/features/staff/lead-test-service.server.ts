import { randomUUID } from "node:crypto";
import { formatClinicTime } from "~/domain/format";
import { followUpPromise, scoreLead } from "~/domain/lead-scoring";
import { budgetLabels, treatmentLabels, urgencyLabels } from "~/features/leads/lead-options";
import { leadLevelLabels } from "./lead-panel-options";
import type { LeadTestResult } from "./lead-test-dto";
import { leadTestInputSchema, type LeadTestInput } from "./lead-test-schema";
import { testScenarios, type ScenarioKey } from "./test-scenarios";

/** Scores a test lead with the production rules. Nothing is stored. */
export function scoreTestLead(
  input: LeadTestInput,
  meta: { label: string; expectedScore: number | null },
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
  };
}

/** A predefined scenario goes through the same validation as the custom form. */
export function scoreScenario(key: ScenarioKey, now = new Date()): LeadTestResult {
  const scenario = testScenarios[key];
  const input = leadTestInputSchema.parse(scenario.lead);
  return scoreTestLead(input, { label: scenario.title, expectedScore: scenario.expectedScore }, now);
}
