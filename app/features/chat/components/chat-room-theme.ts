import type { RoomPosition } from "../chat-schema";

export type Theme = "light" | "dark";

/** Colours of each theme; every text/background pair keeps a contrast of at least 4.5:1. */
export const ROOM_PALETTE = {
  light: {
    card: "bg-white text-slate-900",
    list: "bg-slate-50",
    bubble: "bg-white ring-1 ring-slate-200",
    mine: "bg-slate-900 text-white",
    link: "text-brand-800",
    muted: "text-slate-600",
    border: "border-slate-200",
    input: "border-slate-300 bg-white text-slate-900",
    chip: "bg-slate-100 text-slate-800 ring-1 ring-slate-300 hover:bg-slate-200",
    strong: "bg-slate-900 text-white",
    notice: "bg-amber-50 ring-1 ring-amber-200",
    waiting: "bg-sky-50 text-sky-900",
    panel: "bg-white",
    tab: "text-slate-700 hover:text-slate-900 data-[state=active]:border-slate-900 data-[state=active]:text-slate-900",
  },
  dark: {
    card: "bg-slate-900 text-slate-100",
    list: "bg-slate-950",
    bubble: "bg-slate-800 text-slate-100 ring-1 ring-slate-700",
    mine: "bg-slate-100 text-slate-900",
    link: "text-sky-300",
    muted: "text-slate-300",
    border: "border-slate-700",
    input: "border-slate-500 bg-slate-800 text-slate-100 placeholder:text-slate-400",
    chip: "bg-slate-800 text-slate-100 ring-1 ring-slate-600 hover:bg-slate-700",
    strong: "bg-slate-100 text-slate-900",
    notice: "bg-amber-950 text-amber-50 ring-1 ring-amber-800",
    waiting: "bg-sky-950 text-sky-100",
    panel: "bg-slate-900",
    tab: "text-slate-200 hover:text-white data-[state=active]:border-sky-300 data-[state=active]:text-sky-300",
  },
} satisfies Record<Theme, Record<string, string>>;

export type RoomPalette = (typeof ROOM_PALETTE)[Theme];

/** Where the room sits in its frame (the `position` option). */
export const POSITION_CLASS: Record<RoomPosition, string> = {
  "bottom-right": "items-end justify-end",
  "bottom-left": "items-end justify-start",
  "bottom-center": "items-end justify-center",
  "top-right": "items-start justify-end",
  "top-left": "items-start justify-start",
  "top-center": "items-start justify-center",
};
