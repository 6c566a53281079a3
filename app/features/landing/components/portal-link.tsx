import { Link } from "react-router";

interface PortalLinkProps {
  signedIn: boolean;
  className: string;
  signedInLabel: string;
  anonymousLabel: string;
}

/** The patient portal for a signed-in visitor, the sign-in page otherwise. */
export function PortalLink({ signedIn, className, signedInLabel, anonymousLabel }: PortalLinkProps) {
  return (
    <Link to={signedIn ? "/paciente" : "/auth"} className={className}>
      {signedIn ? signedInLabel : anonymousLabel}
    </Link>
  );
}
