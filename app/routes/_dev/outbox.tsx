import { desc, eq } from "drizzle-orm";
import { data } from "react-router";
import type { Route } from "./+types/outbox";
import { getDb } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { formatClinicDateTime } from "~/domain/format";
import { openPayload } from "~/features/outbox/outbox.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { env, isDemoMode } from "~/lib/base/env.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Correos de demostración" },
  { name: "robots", content: "noindex" },
];

/**
 * The dev outbox (ADR 007): without SMTP_URL, e-mails are not sent but kept; in demo mode a
 * signed-in admin can read them here (they hold password-reset links). With SMTP configured, or outside demo mode,
 * this page does not exist.
 */
export async function loader(args: Route.LoaderArgs) {
  const current = env();
  if (current.SMTP_URL || !isDemoMode(current)) throw data(null, { status: 404 });
  await requireRole(args, ADMIN_ROLES);
  const db = await getDb();
  const rows = await db
    .select({ id: outbox.id, payload: outbox.payload, status: outbox.status, createdAt: outbox.createdAt })
    .from(outbox)
    .where(eq(outbox.kind, "email"))
    .orderBy(desc(outbox.createdAt))
    .limit(50);
  return {
    mails: rows.map((row) => {
      // A mail with a code or a link keeps its body sealed (this is its delivery); the demo admin reads it opened.
      const { payload, secret } = openedMail(row.payload);
      return {
        id: row.id,
        to: String(payload.to ?? ""),
        subject: String(payload.subject ?? ""),
        text: String((secret as { text?: unknown } | undefined)?.text ?? payload.text ?? ""),
        status: row.status,
        createdAt: formatClinicDateTime(row.createdAt),
      };
    }),
  };
}

function openedMail(payload: Record<string, unknown>) {
  try {
    return openPayload(payload);
  } catch {
    return { payload, secret: undefined };
  }
}

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-2xl font-bold">Correos de demostración</h1>
      <p className="mt-2 text-slate-700">
        Sin servidor SMTP configurado, los correos quedan aquí. Configura <code>SMTP_URL</code> para enviarlos
        de verdad.
      </p>
      {loaderData.mails.length === 0 ? (
        <p className="mt-8 text-slate-600">Aún no hay correos.</p>
      ) : (
        <ul className="mt-8 space-y-4">
          {loaderData.mails.map((mail) => (
            <li
              key={mail.id}
              className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
              data-testid="dev-mail"
            >
              <p className="text-sm text-slate-600">
                {mail.createdAt} · para <span className="font-medium text-ink">{mail.to}</span>
              </p>
              <p className="mt-1 font-semibold">{mail.subject}</p>
              <pre className="mt-3 whitespace-pre-wrap break-all font-sans text-sm text-slate-700">
                {mail.text}
              </pre>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
