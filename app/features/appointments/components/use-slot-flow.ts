import { useCallback, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import type { AppointmentActionResult } from "../appointment-schema";
import { useFetcherResult } from "./use-fetcher-result";

/**
 * The shared state of the booking and rescheduling dialogs: the current step, the chosen time, the error, and the
 * submission. On success it toasts and calls `onDone`; on a refusal (the slot was taken meanwhile) it goes back to
 * `timeStep` with the reason and fresh times.
 */
export function useSlotFlow({
  timeStep,
  reload,
  onDone,
}: {
  timeStep: number;
  reload: () => void;
  onDone: () => void;
}) {
  const [step, setStep] = useState(0);
  const [time, setTime] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fetcher = useFetcher<AppointmentActionResult>();

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

  return { step, go, time, setTime, error, fetcher, busy: fetcher.state !== "idle" };
}
