import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";

/** The staff dashboards' heading: title, one line about the page, and the way back. */
export function DashboardHeader({
  title,
  description,
  back,
}: {
  title: React.ReactNode;
  description: React.ReactNode;
  back: { to: string; label: string };
}) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="flex items-center gap-2 text-3xl font-bold">{title}</h1>
        <p className="mt-2 max-w-2xl text-slate-700">{description}</p>
      </div>
      <Link to={back.to} className={buttonClass("secondary")}>
        <ArrowLeft aria-hidden className="size-4" />
        {back.label}
      </Link>
    </header>
  );
}
