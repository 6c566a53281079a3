import { describe, expect, it } from "vitest";
import { createCircuitBreaker } from "./circuit-breaker";
import { IntegrationError } from "./http.server";

function failure(status: number | null) {
  return new IntegrationError({ system: "test", status, body: null, message: "failed" });
}

function clock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

const fail = (status: number | null) => () => Promise.reject(failure(status));
const succeed = () => Promise.resolve("ok");

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as IntegrationError).code;
  }
  return "resolved";
}

describe("circuit breaker", () => {
  it("opens after 5 consecutive service failures and fails fast for 30 s", async () => {
    const time = clock();
    const breaker = createCircuitBreaker({ system: "test", now: time.now });
    let calls = 0;
    const counted = () => {
      calls += 1;
      return Promise.reject(failure(503));
    };
    for (let i = 0; i < 4; i += 1) await codeOf(breaker.run(counted));
    expect(breaker.snapshot()).toEqual({ state: "closed", failures: 4, openedAt: null });
    await codeOf(breaker.run(counted));
    expect(breaker.snapshot()).toEqual({ state: "open", failures: 5, openedAt: new Date(time.now()) });

    time.advance(29_999);
    const error = await breaker.run(counted).catch((caught: unknown) => caught as IntegrationError);
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error).toMatchObject({ code: "CIRCUIT_OPEN", system: "test", retryAfterMs: 1, attempts: 0 });
    expect(calls).toBe(5);
  });

  it("lets one trial through after the cool-down: success closes, failure opens again", async () => {
    const time = clock();
    const breaker = createCircuitBreaker({
      system: "test",
      now: time.now,
      failureThreshold: 2,
      coolDownMs: 1_000,
    });
    await codeOf(breaker.run(fail(null)));
    await codeOf(breaker.run(fail(500)));
    expect(breaker.snapshot().state).toBe("open");

    time.advance(1_000);
    expect(breaker.snapshot().state).toBe("half-open");
    expect(await codeOf(breaker.run(fail(502)))).toBeUndefined();
    expect(breaker.snapshot()).toMatchObject({ state: "open", failures: 3, openedAt: new Date(time.now()) });

    time.advance(1_000);
    await expect(breaker.run(succeed)).resolves.toBe("ok");
    expect(breaker.snapshot()).toEqual({ state: "closed", failures: 0, openedAt: null });
  });

  it("fails fast for other calls while the half-open trial is in flight", async () => {
    const time = clock();
    const breaker = createCircuitBreaker({
      system: "test",
      now: time.now,
      failureThreshold: 1,
      coolDownMs: 10,
    });
    await codeOf(breaker.run(fail(503)));
    time.advance(10);
    const gate = Promise.withResolvers<string>();
    const trial = breaker.run(() => gate.promise);
    expect(await codeOf(breaker.run(succeed))).toBe("CIRCUIT_OPEN");
    gate.resolve("done");
    await expect(trial).resolves.toBe("done");
    expect(breaker.snapshot().state).toBe("closed");
  });

  it("does not count a 4xx: the service answered", async () => {
    const breaker = createCircuitBreaker({ system: "test", failureThreshold: 2 });
    await codeOf(breaker.run(fail(503)));
    await codeOf(breaker.run(fail(400)));
    expect(breaker.snapshot()).toEqual({ state: "closed", failures: 0, openedAt: null });
    await codeOf(breaker.run(fail(409)));
    await codeOf(breaker.run(fail(401)));
    await codeOf(breaker.run(fail(429)));
    expect(breaker.snapshot()).toMatchObject({ state: "closed", failures: 1 });
  });

  it("resets", async () => {
    const breaker = createCircuitBreaker({ system: "test", failureThreshold: 1 });
    await codeOf(breaker.run(fail(500)));
    expect(breaker.snapshot().state).toBe("open");
    breaker.reset();
    expect(breaker.snapshot()).toEqual({ state: "closed", failures: 0, openedAt: null });
  });
});
