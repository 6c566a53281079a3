import { describe, expect, it } from "vitest";
import { ipAllowList, parseIpAllowList } from "./ip-allow-list.server";

describe("parseIpAllowList", () => {
  it("reads addresses and CIDR ranges separated by commas or spaces", () => {
    expect(parseIpAllowList(" 203.0.113.5, 198.51.100.0/24  2001:db8::/32,::1 ")).toEqual({
      entries: ["203.0.113.5/32", "198.51.100.0/24", "2001:db8::/32", "::1/128"],
      invalid: [],
    });
    expect(parseIpAllowList("")).toEqual({ entries: [], invalid: [] });
  });

  it("lists what is neither an address nor a range", () => {
    expect(
      parseIpAllowList("infobip.com, 10.0.0.0/33, 10.0.0.1/8/8, 300.1.1.1, 10.0.0.0/x, ::1/129").invalid,
    ).toEqual(["infobip.com", "10.0.0.0/33", "10.0.0.1/8/8", "300.1.1.1", "10.0.0.0/x", "::1/129"]);
  });
});

describe("ipAllowList", () => {
  const allows = ipAllowList(parseIpAllowList("203.0.113.5, 198.51.100.0/24, 2001:db8::/32").entries);

  it("allows the listed addresses and ranges, IPv4-mapped ones too", () => {
    expect(allows("203.0.113.5")).toBe(true);
    expect(allows("198.51.100.200")).toBe(true);
    expect(allows("::ffff:198.51.100.7")).toBe(true);
    expect(allows("2001:db8:1::9")).toBe(true);
  });

  it("refuses every other address, and what is not an address", () => {
    expect(allows("203.0.113.6")).toBe(false);
    expect(allows("198.51.101.1")).toBe(false);
    expect(allows("2001:db9::1")).toBe(false);
    expect(allows("unknown")).toBe(false);
    expect(allows("")).toBe(false);
  });

  it("allows everyone when no list is configured", () => {
    expect(ipAllowList([])("192.0.2.1")).toBe(true);
  });
});
