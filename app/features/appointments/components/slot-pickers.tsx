import { LoaderCircle, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useMemo } from "react";
import { useFetcher } from "react-router";
import { cn } from "~/lib/cn";
import type { SlotsResponse } from "../appointment-schema";
import type { DayOption } from "./appointment-types";

export const SLOTS_PATH = "/paciente/citas/horarios";

const choiceClass =
  "rounded-lg border px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 " +
  "focus-visible:outline-offset-2 focus-visible:outline-brand-700";

export function choiceButtonClass(selected: boolean) {
  return cn(
    choiceClass,
    selected
      ? "border-brand-700 bg-brand-700 text-white"
      : "border-slate-300 bg-white text-ink hover:border-brand-700 hover:bg-brand-50",
  );
}

/** The next open days as buttons (no past days, no closed days: the loader only lists open ones). */
export function DayPicker({
  days,
  selected,
  onSelect,
  labelledBy,
}: {
  days: DayOption[];
  selected: string | null;
  onSelect: (date: string) => void;
  labelledBy: string;
}) {
  if (days.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        No hay días disponibles para agendar en línea. Llama a la clínica.
      </p>
    );
  }
  return (
    <ul
      aria-labelledby={labelledBy}
      className="grid grid-cols-2 gap-2 sm:grid-cols-4"
      data-testid="day-options"
    >
      {days.map((day) => (
        <li key={day.date}>
          <button
            type="button"
            aria-pressed={selected === day.date}
            onClick={() => onSelect(day.date)}
            className={cn(choiceButtonClass(selected === day.date), "flex w-full flex-col items-center")}
            data-date={day.date}
            data-label={day.label}
          >
            {/* The visible short text starts the accessible name (WCAG 2.5.3); the full date follows for screen readers. */}
            <span className="text-xs capitalize">{day.isToday ? "Hoy" : day.weekdayShort}</span>{" "}
            <span className="font-semibold">{day.dayShort}</span>
            <span className="sr-only">, {day.label}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export interface SlotsState {
  loading: boolean;
  times: string[];
  error: string | null;
  reload: () => void;
}

/** Free start times from /paciente/citas/horarios for a treatment, a dentist (or "any") and a date. */
export function useFreeSlots(query: { treatment: string; dentist: string; date: string } | null): SlotsState {
  const url = query
    ? `${SLOTS_PATH}?${new URLSearchParams({ tratamiento: query.treatment, dentista: query.dentist, fecha: query.date })}`
    : null;
  // One fetcher per query: an answer for another day or dentist can never show under this one.
  const fetcher = useFetcher<SlotsResponse>({ key: url ? `slots:${url}` : undefined });
  const { load } = fetcher;

  useEffect(() => {
    if (url) void load(url);
  }, [url, load]);

  const reload = useCallback(() => {
    if (url) void load(url);
  }, [url, load]);

  const result = fetcher.data;
  const loading = fetcher.state !== "idle" || (url !== null && result === undefined);
  return useMemo(
    () => ({
      loading,
      times: result?.ok ? result.data.slots.map((slot) => slot.time) : [],
      error: result && !result.ok ? result.message : null,
      reload,
    }),
    [loading, result, reload],
  );
}

/** Free times as buttons, with loading, empty and error states announced to screen readers. */
export function TimePicker({
  slots,
  selected,
  onSelect,
  labelledBy,
  onPickAnotherDay,
}: {
  slots: SlotsState;
  selected: string | null;
  onSelect: (time: string) => void;
  labelledBy: string;
  onPickAnotherDay: () => void;
}) {
  if (slots.loading) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
        <LoaderCircle aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />
        Buscando horarios libres...
      </p>
    );
  }
  if (slots.error) {
    return (
      <div role="alert" className="space-y-3 text-sm">
        <p className="font-medium text-red-800">{slots.error}</p>
        <button type="button" onClick={slots.reload} className={choiceButtonClass(false)}>
          <RefreshCw aria-hidden className="mr-1 inline size-4" /> Reintentar
        </button>
      </div>
    );
  }
  if (slots.times.length === 0) {
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        <p>No quedan horarios libres ese día. Elige otra fecha, por favor.</p>
        <button type="button" onClick={onPickAnotherDay} className={choiceButtonClass(false)}>
          Elegir otra fecha
        </button>
      </div>
    );
  }
  return (
    <ul
      aria-labelledby={labelledBy}
      className="grid grid-cols-3 gap-2 sm:grid-cols-5"
      data-testid="time-options"
    >
      {slots.times.map((time) => (
        <li key={time}>
          <button
            type="button"
            aria-pressed={selected === time}
            onClick={() => onSelect(time)}
            className={cn(choiceButtonClass(selected === time), "w-full font-mono")}
          >
            {time}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-2">
      <LoaderCircle aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />
      {label}
    </span>
  );
}

/**
 * The two steps the booking and rescheduling dialogs share: an open day (step `dayStep`), then a free time on it
 * (the next step); choosing a day clears the time, and each choice moves on.
 */
export function DayAndTimeSteps({
  step,
  dayStep,
  go,
  days,
  date,
  onDate,
  dayLabel,
  slots,
  time,
  onTime,
  labelledBy,
}: {
  step: number;
  dayStep: number;
  go: (step: number) => void;
  days: DayOption[];
  date: string | null;
  onDate: (date: string) => void;
  dayLabel: string | undefined;
  slots: SlotsState;
  time: string | null;
  onTime: (time: string | null) => void;
  labelledBy: string;
}) {
  if (step === dayStep) {
    return (
      <DayPicker
        days={days}
        selected={date}
        labelledBy={labelledBy}
        onSelect={(value) => {
          onDate(value);
          onTime(null);
          go(dayStep + 1);
        }}
      />
    );
  }
  if (step !== dayStep + 1) return null;
  return (
    <>
      {dayLabel && <p className="mb-3 text-sm text-slate-700">{dayLabel}</p>}
      <TimePicker
        slots={slots}
        selected={time}
        labelledBy={labelledBy}
        onPickAnotherDay={() => go(dayStep)}
        onSelect={(value) => {
          onTime(value);
          go(dayStep + 2);
        }}
      />
    </>
  );
}
