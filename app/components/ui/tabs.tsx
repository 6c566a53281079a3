import * as TabsPrimitive from "@radix-ui/react-tabs";
import { cn } from "~/lib/cn";

/** WAI-ARIA tabs: arrow keys, Home and End move between the tabs (one tab stop); `role=tab/tabpanel` wired by ids. */
export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn("flex gap-1 overflow-x-auto border-b border-slate-200", className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "-mb-px block border-b-2 border-transparent px-4 py-2.5 text-sm font-semibold whitespace-nowrap " +
          "text-slate-700 transition-colors hover:text-ink data-[state=active]:border-brand-700 " +
          "data-[state=active]:text-brand-800",
        className,
      )}
      {...props}
    />
  );
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
