import { useCallback, useId, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import type { AppointmentActionResult } from "../appointment-schema";
import type { DayOption } from "./appointment-types";
import { useFreeSlots, type DayAndTimeSteps } from "./slot-pickers";
import { useFetcherResult } from "./use-fetcher-result";

/**
 * The shared state of the booking and rescheduling dialogs: the current step, the chosen day and time, the free
 * times, the error, and the submission. `dayAndTime` is everything `DayAndTimeSteps` needs. On success it toasts and
 * calls `onDone`; on a refusal (the slot was taken meanwhile) it goes back to the time step with the reason and fresh
 * times.
 */
export function useSlotFlow({
  dayStep,
  days,
  slotsFor,
  onDone,
}: {
  /** The step that picks the day; the next one picks the time. */
  dayStep: number;
  days: DayOption[];
  /** Whose free times to list once a day is chosen; no treatment yet lists none. */
  slotsFor: { treatment: string | null; dentist: string };
  onDone: () => void;
}) {
  const headingId = useId();
  const [step, setStep] = useState(0);
  const [date, setDate] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fetcher = useFetcher<AppointmentActionResult>();
  const { treatment, dentist } = slotsFor;
  const slots = useFreeSlots(treatment && date ? { treatment, dentist, date } : null);
  const { reload } = slots;
  const timeStep = dayStep + 1;

  const handleResult = useCallback(
    (result: AppointmentActionResult) => {
      if (result.ok) {
        toast.success(result.message);
        onDone();
        return;
      }
      setError(result.message);
      setTime(null);
      setStep(timeStep);
      reload();
    },
    [onDone, reload, timeStep],
  );
  useFetcherResult(fetcher, handleResult);

  const go = (next: number) => {
    setError(null);
    setStep(next);
  };
  const chosenDay = days.find((day) => day.date === date);

  const dayAndTime: React.ComponentProps<typeof DayAndTimeSteps> = {
    step,
    dayStep,
    go,
    days,
    date,
    onDate: setDate,
    dayLabel: chosenDay?.label,
    slots,
    time,
    onTime: setTime,
    labelledBy: headingId,
  };

  return {
    step,
    go,
    time,
    setTime,
    chosenDay,
    headingId,
    dayAndTime,
    error,
    fetcher,
    busy: fetcher.state !== "idle",
  };
}
