import { logger } from "~/lib/base/logger.server";
import { jobRunFinished, jobRunStarted, jobScheduled, registerJob } from "~/lib/metrics.server";

/** What a run may read: whether the job is stopping (a long run ends early, between units of work). */
export interface JobRun {
  readonly stopping: boolean;
}

export interface IntervalJobOptions {
  /** Keys the job's state on `globalThis`: one job per process, even when dev reloads load its module twice. */
  key: string;
  everyMs: number;
  /** Run right at start, or first after `everyMs`. */
  runAtStart: boolean;
  /**
   * A tick or `runSoon` that comes while a run is in progress: `skip` it, or run `again` right after that run ends
   * (work was added meanwhile). Runs never overlap either way.
   */
  whileRunning: "skip" | "again";
  /** Logged at error level, with the error, when a run throws (the job goes on at its next tick). */
  failureMessage: string;
  run: (job: JobRun) => Promise<unknown>;
}

export interface IntervalJob {
  /** Starts the timer (unref'd: it never keeps the process alive). Starting a started job does nothing. */
  start(): void;
  /**
   * Stops the timer and waits for the run in progress, so that it ends before the database closes; with
   * `timeoutMs`, waits at most that long. Resolves whether the run (if any) ended in time.
   */
  stop(timeoutMs?: number): Promise<boolean>;
  /** A run on the next turn of the event loop, when the job is started; nothing otherwise. */
  runSoon(): void;
  /** One run now (shared with the one in progress, if any). */
  runNow(): Promise<void>;
}

interface JobState {
  timer?: NodeJS.Timeout;
  running: boolean;
  again: boolean;
  stopping: boolean;
  /** The run in progress. */
  run?: Promise<void>;
}

const holder = globalThis as typeof globalThis & { __clinicaIntervalJobs?: Map<string, JobState> };

function stateOf(key: string): JobState {
  const jobs = (holder.__clinicaIntervalJobs ??= new Map());
  let state = jobs.get(key);
  if (!state) {
    state = { running: false, again: false, stopping: false };
    jobs.set(key, state);
  }
  return state;
}

/** A job that runs every `everyMs` in this process: the reminders, the rate-limit purge, the outbox worker. */
export function intervalJob(options: IntervalJobOptions): IntervalJob {
  const state = () => stateOf(options.key);
  // Its last run, duration and lag go to /metrics (clinica_job_*; issue 25).
  registerJob(options.key, options.everyMs);

  function runNow(): Promise<void> {
    const job = state();
    if (job.running) {
      if (options.whileRunning === "again") job.again = true;
      return job.run ?? Promise.resolve();
    }
    job.running = true;
    job.run = (async () => {
      try {
        do {
          job.again = false;
          jobRunStarted(options.key);
          let failed = true;
          try {
            await options.run(job);
            failed = false;
          } finally {
            jobRunFinished(options.key, failed);
          }
        } while (job.again && !job.stopping);
      } catch (error) {
        logger.error({ err: error }, options.failureMessage);
      } finally {
        job.running = false;
        job.run = undefined;
      }
    })();
    return job.run;
  }

  return {
    start() {
      const job = state();
      if (job.timer) return;
      job.stopping = false;
      job.timer = setInterval(() => void runNow(), options.everyMs);
      job.timer.unref();
      jobScheduled(options.key);
      if (options.runAtStart) void runNow();
    },
    async stop(timeoutMs) {
      const job = state();
      job.stopping = true;
      if (job.timer) clearInterval(job.timer);
      job.timer = undefined;
      if (!job.run) return true;
      if (timeoutMs === undefined) {
        await job.run;
        return true;
      }
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        job.run.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      return finished;
    },
    runSoon() {
      if (state().timer) setImmediate(() => void runNow());
    },
    runNow,
  };
}
