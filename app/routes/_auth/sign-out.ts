import { redirect } from "react-router";
import type { Route } from "./+types/sign-out";
import { signOut } from "~/features/auth/auth-service.server";

/** 'Salir': ends the session on the server, then goes home (the header's button, as specified). */
export async function action({ request }: Route.ActionArgs) {
  throw redirect("/", { headers: await signOut(request) });
}

export function loader() {
  throw redirect("/");
}
