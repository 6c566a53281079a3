import { BlockList, isIP } from "node:net";

/**
 * An allow-list of client addresses: single IPs and CIDR ranges, IPv4 and IPv6 (`203.0.113.5`, `198.51.100.0/24`,
 * `2001:db8::/32`), for WHATSAPP_WEBHOOK_ALLOW_IPS (ADR 034).
 */

/** The entries of a comma- or space-separated list, each as `address/prefix`, and those that are neither. */
export function parseIpAllowList(text: string): { entries: string[]; invalid: string[] } {
  const entries: string[] = [];
  const invalid: string[] = [];
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const [address = "", prefix, ...rest] = item.split("/");
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const length = prefix === undefined ? bits : Number(prefix);
    const validPrefix = prefix === undefined || /^\d{1,3}$/.test(prefix);
    if (family === 0 || rest.length > 0 || !validPrefix || length > bits) invalid.push(item);
    else entries.push(`${address}/${length}`);
  }
  return { entries, invalid };
}

/** IPv4-mapped IPv6 (`::ffff:203.0.113.5`, as a dual-stack socket reports it) is the IPv4 address. */
function unmapped(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/**
 * Whether an address is on the list (entries from parseIpAllowList). An empty list allows every address: no
 * allow-list is configured. Anything that is not an IP address ("unknown") is not on a list.
 */
export function ipAllowList(entries: readonly string[]): (ip: string) => boolean {
  if (entries.length === 0) return () => true;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix = ""] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    list.addSubnet(unmapped(address), Number(prefix), type);
  }
  return (ip) => {
    const address = unmapped(ip);
    const family = isIP(address);
    if (family === 0) return false;
    return list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}
