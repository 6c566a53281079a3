import { getDb } from "~/db/client.server";
import { env } from "~/lib/base/env.server";
import { consumeAll, type RateCheck } from "~/lib/rate-limit.server";

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * Counts one LLM call against the budgets in the shared rate-limit counters (every instance sees the same): the
 * client address's, per hour and per day, then the model's in all. The address comes first, so one address past its
 * budget spends nothing of everyone's. The total is kept per model because that is what a provider bills. False:
 * some budget is spent and the offline agent answers instead.
 */
export async function chargeLlmCall(address: string | undefined, model: string): Promise<boolean> {
  const current = env();
  const checks: RateCheck[] = [
    ...(address
      ? [
          {
            key: `llm:address:hour:${address}`,
            rule: { window: HOUR, max: current.LLM_CALLS_PER_ADDRESS_HOUR },
          },
          {
            key: `llm:address:day:${address}`,
            rule: { window: DAY, max: current.LLM_CALLS_PER_ADDRESS_DAY },
          },
        ]
      : []),
    { key: `llm:model:hour:${model}`, rule: { window: HOUR, max: current.LLM_CALLS_PER_HOUR } },
    { key: `llm:model:day:${model}`, rule: { window: DAY, max: current.LLM_CALLS_PER_DAY } },
  ];
  return (await consumeAll(await getDb(), checks)).allowed;
}
