import { BlockList, isIP, isIPv4 } from "node:net";

// Where proxies and load balancers live: loopback, the private and shared ranges, link-local.
const infrastructure = new BlockList();
for (const [network, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
]) {
  infrastructure.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
]) {
  infrastructure.addSubnet(network, prefix, "ipv6");
}

/**
 * The peer's address as the log may show it: a private or loopback address (a proxy's, what the operator needs to
 * put in TRUST_PROXY) as it is, any other as "public" — that one may be a client's, and logs carry no personal data.
 */
export function loggablePeer(address) {
  const plain = address.startsWith("::ffff:") && isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = isIPv4(plain) ? "ipv4" : "ipv6";
  try {
    return infrastructure.check(plain, family) ? plain : "public";
  } catch {
    return "public";
  }
}

/**
 * Express's "trust proxy" from TRUST_PROXY (issue 25). Unset, empty, "0" or "false": no proxy, so X-Forwarded-For is
 * ignored and whoever connects is the client. A whole number: that many proxy hops in front of the app (the client is
 * the address the outermost of them saw). Otherwise Express's own list: addresses, subnets or the names "loopback",
 * "linklocal", "uniquelocal", comma-separated. "true" (trust every hop, so any client could pick its own address) is
 * refused, as is anything that is none of these.
 */
export function trustProxySetting(value) {
  const text = String(value ?? "").trim();
  if (text === "" || text === "0" || text.toLowerCase() === "false") return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error("TRUST_PROXY: at most 10 proxy hops");
    return hops;
  }
  const entries = text.split(",").map((entry) => entry.trim());
  const named = new Set(["loopback", "linklocal", "uniquelocal"]);
  for (const entry of entries) {
    if (named.has(entry)) continue;
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address ?? "");
    const prefixOk =
      prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!family || !prefixOk || extra !== undefined) {
      throw new Error(
        `TRUST_PROXY: "${entry}" is not a number of hops, an address, a subnet or loopback/linklocal/uniquelocal`,
      );
    }
  }
  return entries.join(",");
}

/**
 * Express middleware for a TRUST_PROXY that misses the proxy. Express takes the client's address from X-Forwarded-For
 * only when the connecting peer is a trusted proxy (`trusts`, Express's compiled "trust proxy fn"); otherwise the
 * peer itself is the client. Behind a load balancer on another host that TRUST_PROXY does not list, that makes
 * every visitor one client — one rate-limit bucket for everybody. The first request carrying X-Forwarded-For from
 * an untrusted peer logs one warning (per process, never per request); a client that forges the header on its
 * own triggers it too, which is why it says "may".
 */
export function warnOnceOnUntrustedProxy({ trusts, warn }) {
  let warned = false;
  return (req, _res, next) => {
    if (!warned && req.headers["x-forwarded-for"] !== undefined) {
      const peer = req.socket.remoteAddress ?? "";
      if (!trusts(peer, 0)) {
        warned = true;
        warn({
          level: 40,
          msg: "TRUST_PROXY: a request carried X-Forwarded-For from a peer that is not a trusted proxy, so its client address was ignored. If the app runs behind a proxy or load balancer on another host, every client now shares that proxy's address and rate-limit bucket: set TRUST_PROXY to the proxy's address or subnet (README, environment variables).",
          peer: loggablePeer(peer),
        });
      }
    }
    next();
  };
}
