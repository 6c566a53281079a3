import { normalizeIP } from "@better-auth/core/utils/ip";

/**
 * The client's IP as resolved by the production server from the trusted proxies (Express `trust proxy`), passed
 * in a header that server.mjs always overwrites. A client-sent X-Forwarded-For never reaches this value.
 */
export const CLIENT_IP_HEADER = "x-clinica-client-ip";

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/**
 * The client's address as a rate-limit key: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 reduced to its /64
 * prefix (one subscriber usually holds a whole /64, so per-address keys would be free to rotate).
 */
export function rateLimitIp(request: Request): string {
  return normalizeIP(clientIp(request), { ipv6Subnet: 64 });
}
