import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";

/** The "back" text link above a reading page (blog article, legal texts). */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
    >
      <ArrowLeft aria-hidden className="size-4" /> {children}
    </Link>
  );
}
