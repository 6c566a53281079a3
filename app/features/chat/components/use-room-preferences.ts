import { useSyncExternalStore } from "react";
import type { Theme } from "./chat-room-theme";

/**
 * The reader's own choices in the room's settings panel (theme, text size), kept in this browser's localStorage and
 * shared by every room open in it; a null theme is the page's.
 */
export type TextSize = "normal" | "large";

export interface RoomPreferences {
  theme: Theme | null;
  textSize: TextSize;
}

const SETTINGS_KEY = "chat-room-settings";

const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(SETTINGS_KEY);
  } catch {
    return null;
  }
}

function parsePreferences(raw: string | null): RoomPreferences {
  try {
    const saved = JSON.parse(raw ?? "{}") as Partial<RoomPreferences>;
    return {
      theme: saved.theme === "light" || saved.theme === "dark" ? saved.theme : null,
      textSize: saved.textSize === "large" ? "large" : "normal",
    };
  } catch {
    return { theme: null, textSize: "normal" };
  }
}

function writePreferences(next: RoomPreferences) {
  try {
    window.localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
  } catch {
    // storage unavailable: nothing to keep
  }
  for (const listener of listeners) listener();
}

/** The saved preferences (defaults on the server) and their setter. */
export function useRoomPreferences(): [RoomPreferences, (next: RoomPreferences) => void] {
  return [parsePreferences(useSyncExternalStore(subscribe, readStored, () => null)), writePreferences];
}
