import * as TabsPrimitive from "@radix-ui/react-tabs";
import { cn } from "~/lib/cn";

/** WAI-ARIA tabs: arrow keys, Home and End move between the tabs (one tab stop); `role=tab/tabpanel` wired by ids. */
export const Tabs = TabsPrimitive.Root;

/**
 * `brand` (the default): the site's light tabs. `themed`: the same underline tabs, compact, with no colours of their
 * own: the caller's className gives the text, border and active colours (e.g. the chat room's light and dark
 * palettes; `cn` does not merge conflicting utilities, so the brand colours cannot be overridden).
 */
export type TabsVariant = "brand" | "themed";

const LIST_CLASS: Record<TabsVariant, string> = {
  brand: "flex gap-1 overflow-x-auto border-b border-slate-200",
  themed: "flex gap-1 border-b px-2",
};

const TRIGGER_CLASS: Record<TabsVariant, string> = {
  brand:
    "-mb-px block border-b-2 border-transparent px-4 py-2.5 text-sm font-semibold whitespace-nowrap " +
    "text-slate-700 transition-colors hover:text-ink data-[state=active]:border-brand-700 " +
    "data-[state=active]:text-brand-800",
  themed: "-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-semibold",
};

export function TabsList({
  className,
  variant = "brand",
  ...props
}: React.ComponentProps<typeof TabsPrimitive.List> & { variant?: TabsVariant }) {
  return <TabsPrimitive.List className={cn(LIST_CLASS[variant], className)} {...props} />;
}

export function TabsTrigger({
  className,
  variant = "brand",
  ...props
}: React.ComponentProps<typeof TabsPrimitive.Trigger> & { variant?: TabsVariant }) {
  return <TabsPrimitive.Trigger className={cn(TRIGGER_CLASS[variant], className)} {...props} />;
}

/** With `forceMount` every panel stays in the page and the inactive ones are hidden. */
export function TabsContent({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn("focus-visible:outline-offset-4 data-[state=inactive]:hidden", className)}
      {...props}
    />
  );
}
