import { useEffect, useRef } from "react";
import { data, Form, Link, useFetcher, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/conversations";
import { Badge } from "~/components/ui/badge";
import { getDb } from "~/db/client.server";
import { formatClinicTimestamp } from "~/domain/format";
import { AUTOMATIC_REQUEST_PARAM } from "~/domain/session-policy";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import {
  applyInboxAction,
  conversation,
  inboxActionSchema,
  INBOX_ROLES,
  listInbox,
  type InboxRoomDto,
} from "~/features/chat/inbox-service.server";
import { createRoomLink, roomLinkActionSchema } from "~/features/chat/chat-room-link.server";
import { RoomLinkPanel } from "~/features/chat/components/room-link-panel";

export const meta: Route.MetaFunction = () => [{ title: "Conversaciones | Río Clínica" }];

const STATUS_LABEL: Record<string, string> = {
  pending_human: "Esperando a una persona",
  open: "Abiertas",
  bot: "Con el asistente",
  resolved: "Resueltas",
};

const AUTHOR_LABEL: Record<string, string> = {
  guest: "Paciente",
  agent: "Dentista Virtual IA",
  staff: "Equipo",
  system: "Sistema",
};

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, INBOX_ROLES);
  const selected = new URL(args.request.url).searchParams.get("sala");
  const db = await getDb();
  const rooms = await listInbox(db, user.id);
  const current =
    selected && /^[0-9a-f-]{36}$/i.test(selected)
      ? await conversation(db, user, selected).catch(() => null)
      : null;
  return data(
    // `loadedAt`: the page shows the newer of its own data and a live refresh (see the component).
    { rooms, current, selected, loadedAt: Date.now() },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, INBOX_ROLES);
  const form = await readForm(args.request);
  try {
    // A link that opens this conversation in the patient's portal (room mode, ADR 043).
    if (form.intent === "link") {
      const parsed = roomLinkActionSchema.safeParse(form);
      if (!parsed.success) return validationResult(parsed.error);
      const link = await createRoomLink(await getDb(), user, parsed.data.roomId);
      return actionSuccess({ link }, "Enlace creado. Cópialo y envíaselo al paciente.");
    }
    const parsed = inboxActionSchema.safeParse(form);
    if (!parsed.success) return validationResult(parsed.error);
    return actionSuccess(undefined, await applyInboxAction(await getDb(), user, parsed.data));
  } catch (error) {
    return appErrorResult(error);
  }
}

function waited(since: string | null): string {
  if (!since) return "";
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(since)) / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function RoomLink({ room }: { room: InboxRoomDto }) {
  return (
    <li>
      <Link
        to={`?sala=${room.id}`}
        className="block rounded-lg px-3 py-2 text-sm hover:bg-slate-100"
        data-testid="inbox-room"
      >
        <span className="font-semibold">{room.guestName}</span>
        {room.urgent && (
          <Badge tone="bad" className="ml-2">
            Urgente
          </Badge>
        )}
        {room.waitingSince && (
          <span className="ml-2 text-xs text-amber-800">espera {waited(room.waitingSince)}</span>
        )}
        {room.handoffReason && <span className="block text-xs text-slate-600">{room.handoffReason}</span>}
        <span className="block text-xs text-slate-500">
          Última actividad: {formatClinicTimestamp(new Date(room.lastMessageAt))}
        </span>
      </Link>
    </li>
  );
}

export default function Conversations({ loaderData, actionData }: Route.ComponentProps) {
  const live = useFetcher<typeof loader>();
  const location = useLocation();
  const latest = useRef({ live, search: location.search });
  useEffect(() => {
    latest.current = { live, search: location.search };
  });
  const navigation = useNavigation();

  // New messages and waiting conversations appear without reload. The page's own re-read is marked automatic, so
  // an open inbox does not keep the staff idle timeout from running out; when the server refuses the stream (the
  // session ended), the same re-read lands on the sign-in page.
  useEffect(() => {
    const source = new EventSource("/equipo/conversaciones/eventos");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      const params = new URLSearchParams(latest.current.search);
      params.set(AUTOMATIC_REQUEST_PARAM, "1");
      void latest.current.live.load(`/equipo/conversaciones?${params}`);
    };
    source.addEventListener("changed", () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 100);
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) refresh();
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);

  // A live refresh is shown only while it is newer than the page's data and for the same conversation.
  const fresh =
    live.data && live.data.loadedAt > loaderData.loadedAt && live.data.selected === loaderData.selected
      ? live.data
      : loaderData;
  const { rooms, current } = fresh;

  // A sent reply or note empties the box; live updates never do (they would wipe what is being typed), nor does
  // creating a link.
  const createdLink = actionData?.ok && "data" in actionData ? (actionData.data?.link ?? null) : null;
  const replyForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (actionData?.ok && !(actionData.data && "link" in actionData.data)) replyForm.current?.reset();
  }, [actionData]);

  const message = actionData && ("message" in actionData ? actionData.message : undefined);
  const failure = actionData && !actionData.ok ? actionData.message : undefined;

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 lg:grid-cols-[320px_1fr]">
      <h1 className="text-2xl font-bold lg:col-span-2">Conversaciones</h1>
      <nav aria-label="Conversaciones por estado" className="space-y-4">
        {(["pending_human", "open", "bot", "resolved"] as const).map((status) => {
          const list = rooms.filter((room) => room.status === status);
          return (
            <section key={status} aria-labelledby={`inbox-${status}`}>
              <h2 id={`inbox-${status}`} className="text-sm font-semibold text-slate-700">
                {STATUS_LABEL[status]} ({list.length})
              </h2>
              <ul className="mt-1">
                {list.map((room) => (
                  <RoomLink key={room.id} room={room} />
                ))}
              </ul>
            </section>
          );
        })}
      </nav>
      <section aria-label="Conversación" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        {message && (
          <p role="status" className="mb-3 text-sm text-emerald-800">
            {message}
          </p>
        )}
        {failure && (
          <p role="alert" className="mb-3 text-sm text-red-800">
            {failure}
          </p>
        )}
        {!current ? (
          <p className="text-slate-600">Elige una conversación.</p>
        ) : (
          <>
            <h2 className="text-lg font-semibold">{current.guestName}</h2>
            <p className="text-sm text-slate-600">Estado: {STATUS_LABEL[current.status]}</p>
            {current.handoffSummary && (
              <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm">
                <strong>{current.handoffReason}:</strong> {current.handoffSummary}
              </p>
            )}
            <ol
              className="mt-4 max-h-[420px] space-y-2 overflow-y-auto"
              aria-label="Mensajes"
              data-testid="inbox-messages"
            >
              {current.messages.map((item) => (
                <li
                  key={item.id}
                  className={
                    item.kind === "note"
                      ? "rounded-lg bg-yellow-50 p-2 text-sm"
                      : "rounded-lg bg-slate-50 p-2 text-sm"
                  }
                >
                  <span className="block text-xs font-semibold text-slate-700">
                    {item.kind === "note" ? "Nota interna" : AUTHOR_LABEL[item.author]}
                  </span>
                  <span className="whitespace-pre-wrap">{item.content}</span>
                </li>
              ))}
            </ol>
            <div className="mt-4 flex flex-wrap gap-2">
              {current.allowed.take && (
                <Form method="post">
                  <input type="hidden" name="roomId" value={current.id} />
                  <button
                    name="intent"
                    value="take"
                    className="rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white"
                  >
                    Tomar conversación
                  </button>
                </Form>
              )}
              {current.allowed.handback && (
                <Form method="post">
                  <input type="hidden" name="roomId" value={current.id} />
                  <button
                    name="intent"
                    value="handback"
                    className="rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300"
                  >
                    Devolver al asistente
                  </button>
                </Form>
              )}
              {current.allowed.resolve && (
                <Form method="post">
                  <input type="hidden" name="roomId" value={current.id} />
                  <button
                    name="intent"
                    value="resolve"
                    className="rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300"
                  >
                    Marcar resuelta
                  </button>
                </Form>
              )}
            </div>
            {current.status !== "resolved" && (
              <Form method="post" className="mt-4 space-y-2" ref={replyForm}>
                <input type="hidden" name="roomId" value={current.id} />
                <label htmlFor="inbox-reply" className="block text-sm font-semibold">
                  Mensaje
                </label>
                <textarea
                  id="inbox-reply"
                  name="content"
                  rows={3}
                  maxLength={4000}
                  className="w-full rounded-lg border border-slate-300 p-2 text-sm"
                />
                <div className="flex gap-2">
                  <button
                    name="intent"
                    value="reply"
                    disabled={!current.allowed.reply || navigation.state !== "idle"}
                    className="rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white disabled:opacity-50"
                  >
                    Responder al paciente
                  </button>
                  <button
                    name="intent"
                    value="note"
                    className="rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300"
                  >
                    Guardar nota interna
                  </button>
                </div>
              </Form>
            )}
            <RoomLinkPanel roomId={current.id} linkable={current.linkable} link={createdLink} />
          </>
        )}
      </section>
    </div>
  );
}
