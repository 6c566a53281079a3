import { cva } from "class-variance-authority";
import { cn } from "~/lib/cn";

// One recipe per colour: the -100 background, the -900 text (slate: -800) and a -200 ring. Dark text on a -100
// shade passes WCAG AA with room to spare (7:1 and more), so no tone needs its own contrast check.
const slate = "bg-slate-100 text-slate-800 ring-slate-200";
const amber = "bg-amber-100 text-amber-900 ring-amber-200";
const emerald = "bg-emerald-100 text-emerald-900 ring-emerald-200";
const red = "bg-red-100 text-red-900 ring-red-200";

/**
 * The portal's one badge: a short status label in a coloured pill. Tones come in two vocabularies, the colour a
 * domain module assigns (`domain/appointment-status`: sky, emerald, amber, slate, red; `domain/record-badges`:
 * green, yellow, red, grey) and the meaning a screen assigns (neutral, info, good, bad), so that callers pass the
 * tone they already hold instead of keeping a class map of their own.
 */
export const badgeVariants = cva(
  "inline-flex items-center rounded-full font-semibold whitespace-nowrap ring-1",
  {
    variants: {
      size: {
        sm: "px-2.5 py-0.5 text-xs",
        md: "px-3 py-1 text-sm",
      },
      tone: {
        neutral: slate,
        info: amber,
        good: emerald,
        bad: red,
        slate,
        grey: slate,
        sky: "bg-sky-100 text-sky-900 ring-sky-200",
        emerald,
        green: "bg-green-100 text-green-900 ring-green-200",
        yellow: "bg-yellow-100 text-yellow-900 ring-yellow-200",
        amber,
        red,
        // Solid chips, for what must stand out in a list (a lead's level, its status): white or near-black text on
        // a -600/-400/-300 shade, each above 4.5:1.
        "solid-red": "bg-red-600 text-white ring-red-600",
        "solid-amber": "bg-amber-400 text-slate-950 ring-amber-400",
        "solid-sky": "bg-sky-300 text-slate-950 ring-sky-300",
        "solid-slate": "bg-slate-700 text-white ring-slate-700",
      },
    },
    defaultVariants: { tone: "neutral", size: "sm" },
  },
);

export type BadgeTone =
  | "neutral"
  | "info"
  | "good"
  | "bad"
  | "slate"
  | "grey"
  | "sky"
  | "emerald"
  | "green"
  | "yellow"
  | "amber"
  | "red"
  | "solid-red"
  | "solid-amber"
  | "solid-sky"
  | "solid-slate";

export function Badge({
  tone,
  size,
  className,
  ...props
}: React.ComponentProps<"span"> & { tone?: BadgeTone | null; size?: "sm" | "md" | null }) {
  return <span {...props} className={cn(badgeVariants({ tone, size }), className)} />;
}
