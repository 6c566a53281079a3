import { cn } from "~/lib/cn";
import type { RoomPalette, Theme } from "./chat-room-theme";
import type { RoomPreferences } from "./use-room-preferences";

/** The reader's theme and text size, kept in this browser. */
export function ChatSettingsPanel({
  theme,
  preferences,
  onChange,
  palette,
}: {
  /** The theme shown now (the saved one, else the page's). */
  theme: Theme;
  preferences: RoomPreferences;
  onChange: (next: RoomPreferences) => void;
  palette: RoomPalette;
}) {
  return (
    <section
      aria-labelledby="chat-settings-title"
      className={cn("flex-1 overflow-y-auto p-4", palette.panel)}
    >
      <h2 id="chat-settings-title" className="font-semibold">
        Ajustes del chat
      </h2>
      <fieldset className="mt-3">
        <legend className="text-sm font-semibold">Tema</legend>
        <div className="mt-1 flex gap-4 text-sm">
          {(["light", "dark"] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="chat-theme"
                value={value}
                checked={theme === value}
                onChange={() => onChange({ ...preferences, theme: value })}
              />
              {value === "light" ? "Claro" : "Oscuro"}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="mt-4">
        <legend className="text-sm font-semibold">Tamaño del texto</legend>
        <div className="mt-1 flex gap-4 text-sm">
          {(["normal", "large"] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="chat-text-size"
                value={value}
                checked={preferences.textSize === value}
                onChange={() => onChange({ ...preferences, textSize: value })}
              />
              {value === "normal" ? "Normal" : "Grande"}
            </label>
          ))}
        </div>
      </fieldset>
      <p className={cn("mt-4 text-xs", palette.muted)}>Se guardan en este navegador.</p>
    </section>
  );
}
