/** A minimal cookie jar for one site: keeps name=value pairs, drops expired/emptied cookies. */
export class CookieJar {
  private cookies = new Map<string, string>();

  /** Stores the Set-Cookie headers of a Response (or a Headers object). */
  store(source: Response | Headers): this {
    const headers = source instanceof Response ? source.headers : source;
    for (const header of headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", val = ""] = attribute.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(val) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  /** The `Cookie` request header value ("" when empty). */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** A Set-Cookie header split into its name, value and attributes (attribute names lower-cased). */
export function parseSetCookie(header: string): {
  name: string;
  value: string;
  attributes: Map<string, string>;
} {
  const [pair = "", ...rest] = header.split(";");
  const eq = pair.indexOf("=");
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const [key = "", ...value] = part.trim().split("=");
    if (key) attributes.set(key.toLowerCase(), value.join("="));
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}
