import { BlockList, isIPv4 } from "node:net";

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
