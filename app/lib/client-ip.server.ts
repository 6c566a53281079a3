/**
 * The client's IP as resolved by the production server from the trusted proxies (Express `trust proxy`), passed
 * in a header that server.mjs always overwrites. A client-sent X-Forwarded-For never reaches this value.
 */
export const CLIENT_IP_HEADER = "x-clinica-client-ip";

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}
