import { Link } from "react-router";
import { useAppData } from "~/lib/app-data";

interface PortalLinkProps {
  className: string;
  signedInLabel: string;
  anonymousLabel: string;
}

/** The patient portal for a signed-in visitor, the sign-in page otherwise. */
export function PortalLink({ className, signedInLabel, anonymousLabel }: PortalLinkProps) {
  const { user } = useAppData();
  return (
    <Link to={user ? "/paciente" : "/auth"} className={className}>
      {user ? signedInLabel : anonymousLabel}
    </Link>
  );
}
