import { cn } from "~/lib/cn";
import type { RoomMember } from "../chat-room-state";
import type { RoomPalette } from "./chat-room-theme";

const MEMBER_LABEL: Record<RoomMember["role"], string> = {
  guest: "Paciente",
  agent: "Asistente virtual",
  staff: "Equipo de la clínica",
};

/** Who is in the conversation (the room's `members`, undefined while loading). */
export function ChatMembersPanel({
  members,
  palette,
}: {
  members: RoomMember[] | undefined;
  palette: RoomPalette;
}) {
  return (
    <section aria-labelledby="chat-members-title" className={cn("flex-1 overflow-y-auto p-4", palette.panel)}>
      <h2 id="chat-members-title" className="font-semibold">
        Miembros de la conversación
      </h2>
      {members ? (
        <ul className="mt-3 space-y-2" data-testid="chat-members">
          {members.map((member) => (
            <li key={`${member.role}:${member.name}`} className={cn("rounded-lg px-3 py-2", palette.bubble)}>
              <span className="font-semibold">{member.name}</span>{" "}
              <span className={cn("text-xs", palette.muted)}>({MEMBER_LABEL[member.role]})</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={cn("mt-3 text-sm", palette.muted)}>Cargando…</p>
      )}
    </section>
  );
}
