import { NavLink } from "react-router";
import { cn } from "~/lib/cn";

export interface NavPill {
  to: string;
  label: string;
  end: boolean;
}

/**
 * A section's navigation as a row of links, the current one filled: the patient area's and the admin's.
 * `current` marks a link active beyond the router's own match (a user's detail page belongs to "Usuarios").
 */
export function NavPills({
  links,
  className,
  current,
}: {
  links: readonly NavPill[];
  className: string;
  current?: (link: NavPill) => boolean;
}) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.to}>
          <NavLink
            to={link.to}
            end={link.end}
            className={({ isActive }) =>
              cn(
                "block rounded-md px-3 py-1.5 font-medium",
                isActive || current?.(link) ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100",
              )
            }
          >
            {link.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
