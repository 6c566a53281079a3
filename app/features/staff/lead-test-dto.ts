import type { ActionResult } from "~/lib/base/action-result";

/** One scored test lead, as the test dashboard shows it (client-safe). */
export interface LeadTestResult {
  id: string;
  label: string;
  name: string;
  summary: string;
  score: number;
  level: string;
  levelLabel: string;
  reasons: string[];
  promise: { title: string; detail: string };
  expectedScore: number | null;
  testedAt: string;
  /** "HH:mm" on the clinic's clock. */
  testedAtLabel: string;
  /** What the WhatsApp card posts to send this lead's messages (the scenario's key, or the custom lead's fields). */
  sendFields: Record<string, string>;
}

export type LeadTestActionData = ActionResult<{ result: LeadTestResult }>;

export const MAX_TEST_RESULTS = 10;

/** Spec 001 §9: a test's result is shown 1.5 s after it was asked for (the scoring itself is immediate). */
export const TEST_PRESENTATION_DELAY_MS = 1500;
