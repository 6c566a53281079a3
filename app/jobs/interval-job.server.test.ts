import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { intervalJob, type IntervalJobOptions } from "./interval-job.server";

const loggedErrors = vi.hoisted(() => [] as unknown[][]);
vi.mock("~/lib/base/logger.server", () => ({
  logger: { error: (...args: unknown[]) => loggedErrors.push(args), warn: () => {}, info: () => {} },
}));

let keys = 0;
function job(options: Partial<IntervalJobOptions> & Pick<IntervalJobOptions, "run">) {
  keys += 1;
  return intervalJob({
    key: `test-${keys}`,
    everyMs: 1_000,
    runAtStart: false,
    whileRunning: "skip",
    failureMessage: "test job failed",
    ...options,
  });
}

/** A run that stays in progress until `finish()` is called. */
function gate() {
  const { promise, resolve } = Promise.withResolvers<void>();
  return { done: promise, finish: () => resolve() };
}

beforeEach(() => {
  vi.useFakeTimers();
  loggedErrors.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe("intervalJob", () => {
  it("runs at start when asked, then every interval; starting twice starts one timer", async () => {
    const run = vi.fn<() => Promise<void>>(async () => {});
    const ticking = job({ run, runAtStart: true });
    ticking.start();
    ticking.start();
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(run).toHaveBeenCalledTimes(4);
    await ticking.stop();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it("waits one interval for its first run otherwise", async () => {
    const run = vi.fn<() => Promise<void>>(async () => {});
    const ticking = job({ run });
    ticking.start();
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    await ticking.stop();
  });

  it("never overlaps runs: a tick during a run is skipped", async () => {
    const slow = gate();
    const run = vi.fn<() => Promise<void>>(() => slow.done);
    const ticking = job({ run, runAtStart: true });
    ticking.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(1);
    slow.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    await ticking.stop();
  });

  it("with whileRunning 'again', a request during a run makes it go round once more", async () => {
    const slow = gate();
    let calls = 0;
    const ticking = job({
      whileRunning: "again",
      run: async () => {
        calls += 1;
        if (calls === 1) await slow.done;
      },
    });
    ticking.start();
    const first = ticking.runNow();
    void ticking.runNow();
    void ticking.runNow();
    expect(calls).toBe(1);
    slow.finish();
    await first;
    expect(calls).toBe(2);
    await ticking.stop();
  });

  it("logs a failed run with its error and goes on at the next tick", async () => {
    const failure = new Error("boom");
    const run = vi.fn<() => Promise<void>>(async () => {
      throw failure;
    });
    const ticking = job({ run, runAtStart: true });
    ticking.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(loggedErrors).toEqual([
      [{ err: failure }, "test job failed"],
      [{ err: failure }, "test job failed"],
    ]);
    await ticking.stop();
  });

  it("stop waits for the run in progress, or at most timeoutMs; a run sees that it is stopping", async () => {
    const slow = gate();
    const seen: boolean[] = [];
    const ticking = job({
      runAtStart: true,
      run: async (state) => {
        await slow.done;
        seen.push(state.stopping);
      },
    });
    ticking.start();
    const cut = ticking.stop(500);
    await vi.advanceTimersByTimeAsync(500);
    expect(await cut).toBe(false);
    const waited = ticking.stop();
    slow.finish();
    expect(await waited).toBe(true);
    expect(seen).toEqual([true]);
  });

  it("runSoon runs on the next turn only while the job is started", async () => {
    const run = vi.fn<() => Promise<void>>(async () => {});
    const ticking = job({ run });
    ticking.runSoon();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).not.toHaveBeenCalled();
    ticking.start();
    ticking.runSoon();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await ticking.stop();
  });

  it("does not keep the process alive", () => {
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const ticking = job({ run: async () => {} });
    ticking.start();
    const timer = setIntervalSpy.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    setIntervalSpy.mockRestore();
    void ticking.stop();
  });
});
