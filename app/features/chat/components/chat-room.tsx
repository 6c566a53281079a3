import { useEffect, useRef, useState } from "react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { cn } from "~/lib/cn";
import { readDraftFragment } from "../chat-draft-handover";
import type { RoomOptions } from "../chat-room-state";
import { ChatComposer } from "./chat-composer";
import { ChatConversationPanel } from "./chat-conversation-panel";
import { ChatMembersPanel } from "./chat-members-panel";
import { ChatRoomHeader, type RoomView } from "./chat-room-header";
import { POSITION_CLASS, ROOM_PALETTE, type Theme } from "./chat-room-theme";
import { ChatSettingsPanel } from "./chat-settings-panel";
import { useDictation } from "./use-dictation";
import { useParentFrame } from "./use-parent-frame";
import { useRoomActions } from "./use-room-actions";
import { useRoomFeed } from "./use-room-feed";
import { useRoomPreferences } from "./use-room-preferences";
import { useTokenRetry } from "./use-token-retry";

const PANEL_LABEL: Record<RoomView, string> = { chat: "Chat", members: "Miembros", settings: "Ajustes" };

/**
 * The room page inside the widget's iframe: it asks the parent for the guest's token (postMessage), loads the
 * history, follows new messages by SSE (resuming with Last-Event-ID) and sends by POST; the panels (chat, members,
 * settings) show as tabs or behind header buttons.
 */
export function ChatRoom({ options }: { options: RoomOptions }) {
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [view, setView] = useState<RoomView>("chat");
  const [preferences, setPreferences] = useRoomPreferences();
  const frame = useParentFrame(options.parentOrigins, setError);
  const withToken = useTokenRetry(frame.token, frame.requestFreshToken);
  const feed = useRoomFeed({
    roomId: options.roomId,
    token: frame.token,
    reload,
    conversationHistory: options.conversationHistory,
    members: options.members,
    toParent: frame.toParent,
    onError: setError,
  });
  const actions = useRoomActions({ roomId: options.roomId, withToken, setRoom: feed.setRoom, setError });
  const dictation = useDictation({
    onText: (transcript) =>
      actions.setDraft((current) => (current ? `${current} ${transcript}` : transcript)),
    onError: setError,
  });

  const room = feed.room;
  // Text typed in the widget's compact bar before it opened (issue 24, item 4): into the composer, and sent once the
  // conversation is open to the guest if Enter opened the panel.
  const handedToSend = useRef<string | null>(null);
  const { setDraft } = actions;
  useEffect(() => {
    const handed = readDraftFragment(window.location.hash);
    if (!handed) return;
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    setDraft(handed.text);
    if (handed.send) handedToSend.current = handed.text;
    // Runs once in practice: the fragment is gone afterwards, and setDraft is a state setter.
  }, [setDraft]);
  const canSend = Boolean(room && room.status !== "resolved" && !(room.status === "bot" && !room.ai_consent));
  useEffect(() => {
    const text = handedToSend.current;
    if (!canSend || !text) return;
    handedToSend.current = null;
    void actions.send(text);
  }, [canSend, actions]);
  const withPerson = room?.status === "pending_human" || room?.status === "open";
  const theme: Theme = preferences.theme ?? options.theme;
  const palette = ROOM_PALETTE[theme];
  const textClass = preferences.textSize === "large" ? "text-base" : "text-sm";
  const sized = options.roomWidth !== null || options.roomHeight !== null;
  const panels: RoomView[] = [
    "chat",
    ...(options.members ? (["members"] as const) : []),
    ...(options.settings ? (["settings"] as const) : []),
  ];

  const panelOf = (panel: RoomView) =>
    panel === "members" ? (
      <ChatMembersPanel members={room?.members} palette={palette} />
    ) : panel === "settings" ? (
      <ChatSettingsPanel
        theme={theme}
        preferences={preferences}
        onChange={setPreferences}
        palette={palette}
      />
    ) : (
      <ChatConversationPanel
        room={room}
        connecting={!frame.token && !error}
        historyUntil={feed.historyUntil}
        drafts={feed.drafts}
        hoursLong={options.hoursLong}
        error={error}
        onRetry={() => {
          setError(null);
          setReload((value) => value + 1);
        }}
        onAccept={() => void actions.accept()}
        onAskPerson={() => void actions.askPerson()}
        textClass={textClass}
        palette={palette}
        composer={
          room && (
            <ChatComposer
              draft={actions.draft}
              onDraft={actions.setDraft}
              onSend={(text) => void actions.send(text)}
              sending={actions.sending}
              showSuggestions={options.suggestions && room.messages.length === 0}
              dictation={options.voiceEnabled && dictation.available ? dictation : null}
              onAskPerson={room.status === "bot" ? () => void actions.askPerson() : null}
              textClass={textClass}
              palette={palette}
            />
          )
        }
      />
    );

  return (
    // The frame: background_color (with background_blur) shows around the room when the frame is larger than
    // room_width × room_height, and position places the room in it.
    <div
      data-theme={theme}
      data-position={options.position}
      data-background-blur={options.backgroundBlur ? "true" : "false"}
      className={cn("flex h-dvh w-full", POSITION_CLASS[options.position])}
      style={{ backgroundColor: options.backgroundColor }}
    >
      <div
        data-testid="chat-room"
        className={cn(
          "flex h-full w-full flex-col overflow-hidden",
          palette.card,
          options.backgroundBlur && "backdrop-blur-md",
        )}
        style={{
          maxWidth: options.roomWidth ?? undefined,
          maxHeight: options.roomHeight ?? undefined,
          borderRadius: sized ? options.borderRadius : undefined,
        }}
      >
        <ChatRoomHeader
          options={options}
          withPerson={withPerson}
          connected={feed.connected}
          mobile={frame.mobile}
          view={view}
          onView={setView}
          toParent={frame.toParent}
        />
        {options.tabs && panels.length > 1 ? (
          <Tabs
            value={view}
            onValueChange={(value) => setView(value as RoomView)}
            className="flex min-h-0 flex-1 flex-col"
          >
            <TabsList
              variant="themed"
              aria-label="Secciones del chat"
              className={cn(palette.border, palette.card)}
            >
              {panels.map((panel) => (
                <TabsTrigger key={panel} variant="themed" value={panel} className={palette.tab}>
                  {PANEL_LABEL[panel]}
                </TabsTrigger>
              ))}
            </TabsList>
            {panels.map((panel) => (
              <TabsContent key={panel} value={panel} className="flex min-h-0 flex-1 flex-col">
                {panelOf(panel)}
              </TabsContent>
            ))}
          </Tabs>
        ) : (
          panelOf(view)
        )}
      </div>
    </div>
  );
}
