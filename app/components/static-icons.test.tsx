import * as lucide from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as icons from "./static-icons";
import { iconMarkup, staticIcon } from "./static-icons";

/** The shapes inside lucide-react's own <svg>, with React's `<path …></path>` written as `<path …/>`. */
function lucideShapes(Icon: lucide.LucideIcon): string {
  const html = renderToStaticMarkup(<Icon />);
  const inner = /^<svg[^>]*>(.*)<\/svg>$/s.exec(html)?.[1] ?? "";
  return inner.replace(/<([a-z]+)([^>]*)><\/\1>/g, "<$1$2/>");
}

describe("static icons", () => {
  it("draw exactly lucide-react's shapes for every icon they offer", () => {
    const pairs: [string, lucide.LucideIcon][] = Object.keys(icons)
      .filter((name) => /^[A-Z]/.test(name))
      .map((name) => [name, (lucide as unknown as Record<string, lucide.LucideIcon>)[name]!]);
    expect(pairs.length).toBeGreaterThanOrEqual(13);
    for (const [name, LucideIcon] of pairs) {
      const Static = (icons as unknown as Record<string, icons.StaticIcon>)[name]!;
      const shapes = lucideShapes(LucideIcon);
      expect({ name, long: shapes.length > 10 }).toEqual({ name, long: true });
      // The icon's name beside its markup, so that a failure says which icon differs.
      expect(`${name}: ${renderToStaticMarkup(<Static />)}`).toContain(`${name}: <svg`);
      expect(`${name}: ${renderToStaticMarkup(<Static />)}`).toContain(`>${shapes}</svg>`);
    }
  });

  it("are decorative and keep the caller's classes", () => {
    expect(renderToStaticMarkup(<icons.Mail className="size-5 text-brand-700" />)).toMatch(
      /^<svg viewBox="0 0 24 24" aria-hidden="true" class="icon lucide-mail size-5 text-brand-700">/,
    );
    expect(renderToStaticMarkup(<icons.Menu />)).toMatch(/^<svg [^>]*class="icon lucide-menu">/);
  });

  it("escape attribute values and refuse names that are not plain SVG attributes", () => {
    expect(iconMarkup({ name: "t", node: [["path", { d: 'M0 0"/><script>x</script>', key: "k" }]] })).toBe(
      '<path d="M0 0&quot;/>&lt;script>x&lt;/script>"/>',
    );
    expect(() => iconMarkup({ name: "t", node: [["path", { onload: "alert(1)" }]] })).toThrow(
      /unexpected attribute onload/,
    );
    expect(() => iconMarkup({ name: "t", node: [["path", { 'd="" x': "y" }]] })).toThrow(
      /unexpected attribute/,
    );
    expect(() => iconMarkup({ name: "t", node: [["script src=x", {}]] })).toThrow(/unexpected element/);
    expect(() => staticIcon({})).toThrow(/__iconData/);
  });
});
