import type { ActionResult } from "~/lib/action-result";

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
}

export type LeadTestActionData = ActionResult<{ result: LeadTestResult }>;

export const MAX_TEST_RESULTS = 10;
