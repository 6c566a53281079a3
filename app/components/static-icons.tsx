// The public pages' decorative icons, drawn from lucide's own shapes but rendered as one <svg> whose shapes are a
// single prepared string. lucide-react's components rebuild their attributes and child elements on every render
// (two forwardRef components, a context read, 13 attributes and one element per shape); on the landing, rendered for
// every signed-in visitor, its 17 icons were a third of the page's attributes (issue 25's profile of `/`). Same
// look: the stroke settings lucide writes on each icon are the `.icon` rule of app.css.
import * as badgeCheck from "lucide-react/icons/badge-check";
import * as bookOpen from "lucide-react/icons/book-open";
import * as clipboardList from "lucide-react/icons/clipboard-list";
import * as clock from "lucide-react/icons/clock";
import * as externalLink from "lucide-react/icons/external-link";
import * as mail from "lucide-react/icons/mail";
import * as mapPin from "lucide-react/icons/map-pin";
import * as menu from "lucide-react/icons/menu";
import * as messageCircle from "lucide-react/icons/message-circle";
import * as phone from "lucide-react/icons/phone";
import * as smartphone from "lucide-react/icons/smartphone";
import * as stethoscope from "lucide-react/icons/stethoscope";
import * as close from "lucide-react/icons/x";

/** An icon's shapes as lucide-react 1.x ships them beside each component (`__iconData`). */
type IconData = { name: string; node: ReadonlyArray<readonly [string, Readonly<Record<string, unknown>>]> };

/** Plain SVG element and attribute names; no event handler (`on…`) even if the data said so. */
const ATTRIBUTE_NAME = /^(?!on)[a-z][a-z-]*$/;

function escapeAttribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** The shapes of one icon as SVG markup (lucide's React-only `key` left out). Exported for its unit test. */
export function iconMarkup(data: IconData): string {
  return data.node
    .map(([tag, attributes]) => {
      if (!ATTRIBUTE_NAME.test(tag)) throw new Error(`icon ${data.name}: unexpected element ${tag}`);
      const written = Object.entries(attributes)
        .filter(([name]) => name !== "key")
        .map(([name, value]) => {
          if (!ATTRIBUTE_NAME.test(name)) throw new Error(`icon ${data.name}: unexpected attribute ${name}`);
          return ` ${name}="${escapeAttribute(String(value))}"`;
        })
        .join("");
      return `<${tag}${written}/>`;
    })
    .join("");
}

function iconData(module: object): IconData {
  const data = (module as { __iconData?: IconData }).__iconData;
  if (!data || !Array.isArray(data.node))
    throw new Error("lucide-react no longer ships __iconData beside its icons");
  return data;
}

export type StaticIcon = (props: { className?: string }) => React.JSX.Element;

/** A decorative (aria-hidden) icon component for lucide's icon of that module, sized by its class. */
export function staticIcon(module: object): StaticIcon {
  const data = iconData(module);
  const inner = { __html: iconMarkup(data) };
  const base = `icon lucide-${data.name}`;
  function Icon({ className }: { className?: string }) {
    return (
      <svg
        viewBox="0 0 24 24"
        aria-hidden="true"
        className={className ? `${base} ${className}` : base}
        dangerouslySetInnerHTML={inner}
      />
    );
  }
  Icon.displayName = `StaticIcon(${data.name})`;
  return Icon;
}

export const BadgeCheck = staticIcon(badgeCheck);
export const BookOpen = staticIcon(bookOpen);
export const ClipboardList = staticIcon(clipboardList);
export const Clock = staticIcon(clock);
export const ExternalLink = staticIcon(externalLink);
export const Mail = staticIcon(mail);
export const MapPin = staticIcon(mapPin);
export const Menu = staticIcon(menu);
export const MessageCircle = staticIcon(messageCircle);
export const Phone = staticIcon(phone);
export const Smartphone = staticIcon(smartphone);
export const Stethoscope = staticIcon(stethoscope);
export const X = staticIcon(close);
