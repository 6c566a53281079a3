/**
 * The anonymous guest's browser cookie: an httpOnly secret whose hash the guest row keeps, so only this browser
 * proves it owns the guest. `__Host-` on HTTPS.
 */
const GUEST_COOKIE = "chat_guest";

function cookieName(request: Request) {
  return new URL(request.url).protocol === "https:" ? `__Host-${GUEST_COOKIE}` : GUEST_COOKIE;
}

export function browserSecret(request: Request): string | undefined {
  const name = cookieName(request);
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || undefined;
  }
  return undefined;
}

export function guestCookie(request: Request, secret: string) {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${cookieName(request)}=${secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure}`;
}
