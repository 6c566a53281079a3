import { describe, expect, it } from "vitest";
import { loggablePeer, trustProxySetting, warnOnceOnUntrustedProxy } from "./proxy-trust.mjs";

const trustsLoopback = (address: string) => address === "127.0.0.1" || address === "::ffff:127.0.0.1";

function request(peer: string, forwardedFor?: string) {
  return {
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    socket: { remoteAddress: peer },
  };
}

function run(middleware: ReturnType<typeof warnOnceOnUntrustedProxy>, req: ReturnType<typeof request>) {
  let passed = false;
  middleware(req, {}, () => (passed = true));
  expect(passed).toBe(true);
}

describe("warnOnceOnUntrustedProxy", () => {
  it("warns once, at the first X-Forwarded-For from a peer the trust function refuses", () => {
    const lines: Array<Record<string, unknown>> = [];
    const middleware = warnOnceOnUntrustedProxy({
      trusts: trustsLoopback,
      warn: (line: Record<string, unknown>) => lines.push(line),
    });
    run(middleware, request("127.0.0.1", "198.51.100.7")); // the trusted proxy on this host
    run(middleware, request("10.0.4.2")); // a direct client, no header
    expect(lines).toEqual([]);
    run(middleware, request("10.0.4.2", "198.51.100.7")); // a load balancer elsewhere, not trusted
    run(middleware, request("10.0.4.3", "198.51.100.8"));
    run(middleware, request("::ffff:10.0.4.2", "198.51.100.9"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, peer: "10.0.4.2" });
    expect(String(lines[0]!.msg)).toContain("TRUST_PROXY");
  });
});

describe("loggablePeer", () => {
  it.each([
    ["10.0.4.2", "10.0.4.2"],
    ["172.20.1.1", "172.20.1.1"],
    ["192.168.1.10", "192.168.1.10"],
    ["::ffff:192.168.1.10", "192.168.1.10"],
    ["127.0.0.13", "127.0.0.13"],
    ["fd00::1", "fd00::1"],
    ["::1", "::1"],
    ["203.0.113.9", "public"],
    ["2001:db8::1", "public"],
    ["", "public"],
  ])("%j → %j", (address, shown) => {
    expect(loggablePeer(address)).toBe(shown);
  });
});

describe("trustProxySetting (TRUST_PROXY)", () => {
  it("trusts no proxy when unset, so X-Forwarded-For is ignored", () => {
    for (const value of [undefined, "", " ", "0", "false", "FALSE"])
      expect(trustProxySetting(value)).toBe(false);
  });

  it("takes a number of hops, or Express's addresses, subnets and names", () => {
    expect(trustProxySetting("1")).toBe(1);
    expect(trustProxySetting("2")).toBe(2);
    expect(trustProxySetting("loopback")).toBe("loopback");
    expect(trustProxySetting("10.0.0.0/8, 192.168.1.4,loopback,fd00::/8")).toBe(
      "10.0.0.0/8,192.168.1.4,loopback,fd00::/8",
    );
  });

  it("refuses 'true' (every client would choose its own address) and anything it cannot read", () => {
    for (const value of ["true", "*", "10.0.0.0/33", "proxy.example", "11", "1.2.3.4/8/1"]) {
      expect(() => trustProxySetting(value)).toThrow(/TRUST_PROXY/);
    }
  });
});
