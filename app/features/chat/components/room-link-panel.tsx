import { useState } from "react";
import { Form } from "react-router";
import { formatClinicTimestamp } from "~/domain/format";

export interface CreatedRoomLink {
  roomId: string;
  url: string;
  expiresAt: string;
}

/**
 * The inbox's link to a conversation (room mode, ADR 043): staff create it, copy it and send it to the patient,
 * whose portal opens this conversation in the chat. Only a signed-in patient's conversation has one.
 */
export function RoomLinkPanel({
  roomId,
  linkable,
  link,
}: {
  roomId: string;
  linkable: boolean;
  link: CreatedRoomLink | null;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  if (!linkable)
    return (
      <p className="mt-4 text-sm text-slate-600">
        Esta conversación es de un visitante sin cuenta: no hay un portal donde enviarle un enlace.
      </p>
    );
  const shown = link?.roomId === roomId ? link : null;
  return (
    <section aria-labelledby="room-link-title" className="mt-4 rounded-lg bg-slate-50 p-3">
      <h3 id="room-link-title" className="text-sm font-semibold">
        Enlace a esta conversación
      </h3>
      <p className="text-xs text-slate-600">
        Abre esta conversación en el portal del paciente, solo con su cuenta. Vence en 7 días.
      </p>
      <Form method="post" className="mt-2">
        <input type="hidden" name="roomId" value={roomId} />
        <button
          name="intent"
          value="link"
          className="rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300"
        >
          Crear enlace para el paciente
        </button>
      </Form>
      {shown && (
        <div className="mt-3 space-y-1">
          <label htmlFor="room-link-url" className="block text-sm font-semibold">
            Enlace para el paciente (vence el {formatClinicTimestamp(new Date(shown.expiresAt))})
          </label>
          <div className="flex gap-2">
            <input
              id="room-link-url"
              readOnly
              value={shown.url}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white p-2 text-xs"
            />
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard?.writeText(shown.url).then(
                  () => setCopied(shown.url),
                  () => setCopied(null),
                )
              }
              className="rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white"
            >
              Copiar enlace
            </button>
          </div>
          <p role="status" className="text-xs text-emerald-800">
            {copied === shown.url ? "Enlace copiado." : ""}
          </p>
        </div>
      )}
    </section>
  );
}
