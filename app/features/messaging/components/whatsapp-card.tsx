import { AlertTriangle, CheckCircle2, Loader2, MessageCircle, RotateCcw, Send } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  API_LOG_SIZE,
  type TestSendStatus,
  type WhatsAppLogEntry,
  type WhatsAppTestSendResult,
} from "../whatsapp-log-dto";

// Spec 001 §8, verbatim.
export const WHATSAPP_SUCCESS_TEXT = "Mensajes enviados exitosamente...";
export const WHATSAPP_ERROR_TEXT = "Error al enviar mensajes de WhatsApp. Por favor, intenta nuevamente.";
const POLL_MS = 1_000;

/** The lead the card sends for: a stable key (a new lead resets the card), a label, and the fields to post. */
export interface WhatsAppCardLead {
  key: string;
  label: string;
  fields: Record<string, string>;
}

export interface WhatsAppCardProps {
  lead: WhatsAppCardLead | null;
  /** The clinic sends nothing at all (no API key, or WHATSAPP_TEST_MODE=1): the toggle stays on. */
  clinicTestMode: boolean;
  initialLog: WhatsAppLogEntry[];
  /** Spec 001 §4: on in the test dashboard, off (the default) where the card is used elsewhere. */
  defaultTestMode?: boolean;
  /** The staff resource route that queues the messages (POST) and reports their status (GET ?ids=). */
  endpoint?: string;
}

type Phase = "idle" | "sending" | "success" | "error";

/**
 * A version-4 uuid for the attempt's idempotency key. `crypto.randomUUID` exists only in secure contexts (https,
 * localhost); `getRandomValues` everywhere, so the card also works over plain http on a clinic's network.
 */
function attemptKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The WhatsApp integration card: sends a new lead's two messages (advisor notice, patient confirmation) for the test lead
 * through the server's outbox, idle → sending → success or error with 'Reintentar'. "Sending" lasts until the
 * provider accepted both messages or one failed for good: the action answers the messages' ids and the card polls
 * their status. The API log below lists the latest 10 calls, read from the server.
 */
export function WhatsAppCard({
  lead,
  clinicTestMode,
  initialLog,
  defaultTestMode = false,
  endpoint = "/test/whatsapp",
}: WhatsAppCardProps) {
  const sendFetcher = useFetcher<WhatsAppTestSendResult>();
  const statusFetcher = useFetcher<TestSendStatus>();
  const [phase, setPhase] = useState<Phase>("idle");
  const [ids, setIds] = useState<string[] | null>(null);
  const [detail, setDetail] = useState("");
  const [retrying, setRetrying] = useState<number | null>(null);
  const [toggle, setToggle] = useState(defaultTestMode);
  const testMode = toggle || clinicTestMode;
  const [sentInTestMode, setSentInTestMode] = useState(testMode);
  // One attempt's idempotency key: kept across a double click, replaced by 'Reintentar', a new lead or the toggle.
  const attempt = useRef<{ key: string; lead: string; testMode: boolean } | null>(null);
  const inFlight = useRef(false);

  // A new test lead starts a new send (adjusting state while rendering, React's alternative to an effect).
  const [leadKey, setLeadKey] = useState(lead?.key);
  if (lead?.key !== leadKey) {
    setLeadKey(lead?.key);
    if (phase !== "sending") setPhase("idle");
  }

  useEffect(() => {
    const answer = sendFetcher.data;
    if (!answer || !inFlight.current) return;
    if (answer.ok) {
      setIds(answer.data.ids);
      setSentInTestMode(answer.data.testMode);
    } else {
      finish("error", answer.message);
    }
    // finish only sets state; the answer is what matters
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [sendFetcher.data]);

  const load = statusFetcher.load;
  useEffect(() => {
    if (phase !== "sending" || !ids) return;
    const query = `${endpoint}?ids=${ids.join(",")}`;
    void load(query);
    const timer = setInterval(() => void load(query), POLL_MS);
    return () => clearInterval(timer);
  }, [phase, ids, endpoint, load]);

  useEffect(() => {
    const status = statusFetcher.data;
    if (!status || !ids || !inFlight.current) return;
    const ours = status.messages.filter((message) => ids.includes(message.id));
    if (ours.length !== ids.length) return;
    setRetrying(ours.find((message) => message.retryingAttempt !== null)?.retryingAttempt ?? null);
    if (status.progress === "success") finish("success");
    if (status.progress === "error") {
      const failed = ours.find((message) => message.status === "failed");
      finish("error", failed?.error ?? "el proveedor no aceptó el mensaje.");
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [statusFetcher.data]);

  function finish(outcome: "success" | "error", why = "") {
    inFlight.current = false;
    setRetrying(null);
    setPhase(outcome);
    setDetail(why);
    if (outcome === "error") attempt.current = null;
  }

  function send() {
    if (!lead || inFlight.current) return;
    const same = attempt.current;
    if (!same || same.lead !== lead.key || same.testMode !== testMode) {
      attempt.current = { key: attemptKey(), lead: lead.key, testMode };
    }
    inFlight.current = true;
    setIds(null);
    setDetail("");
    setSentInTestMode(testMode);
    setPhase("sending");
    void sendFetcher.submit(
      { ...lead.fields, attemptKey: attempt.current!.key, testMode: testMode ? "1" : "0" },
      { method: "post", action: endpoint },
    );
  }

  function changeTestMode(on: boolean) {
    setToggle(on);
    if (phase === "success" || phase === "error") setPhase("idle");
  }

  const log = statusFetcher.data?.log ?? initialLog;
  const sending = phase === "sending";
  const errorText = sentInTestMode ? `Error de prueba: ${detail}` : WHATSAPP_ERROR_TEXT;

  return (
    <section
      aria-labelledby="whatsapp-card"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="whatsapp-card"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="whatsapp-card" className="flex items-center gap-2 text-xl font-semibold">
          <MessageCircle aria-hidden className="size-5 text-brand-700" />
          Integración WhatsApp
        </h2>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            checked={testMode}
            disabled={clinicTestMode || sending}
            onChange={(event) => changeTestMode(event.target.checked)}
            aria-describedby={clinicTestMode ? "whatsapp-clinic-test-mode" : "whatsapp-test-mode-hint"}
            className="size-4 accent-brand-700"
          />
          Modo de prueba
        </label>
      </div>
      <p className="mt-2 text-sm text-slate-700">
        Envía los dos mensajes del lead de prueba actual: primero el aviso al asesor (al WhatsApp de la
        clínica), luego la confirmación al paciente con la promesa de seguimiento de su nivel.
      </p>
      {clinicTestMode ? (
        <p
          id="whatsapp-clinic-test-mode"
          className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          La clínica está en modo de prueba: no hay una API key de WhatsApp configurada (o
          WHATSAPP_TEST_MODE=1), así que ningún mensaje sale al proveedor y el modo de prueba no se puede
          desactivar.
        </p>
      ) : (
        <p id="whatsapp-test-mode-hint" className="mt-2 text-sm text-slate-600">
          {testMode
            ? "Con el modo de prueba activo nada sale al proveedor: los mensajes quedan registrados como aceptados."
            : "Modo de prueba desactivado: los mensajes se envían al proveedor de verdad."}
        </p>
      )}

      <div className="mt-4 rounded-lg bg-slate-50 p-3 text-sm">
        {lead ? (
          <p>
            <span className="font-medium">Lead de prueba actual:</span> {lead.label}
          </p>
        ) : (
          <p className="text-slate-700" id="whatsapp-no-lead">
            Aún no hay un lead de prueba: ejecuta un escenario o una prueba personalizada para enviar sus
            mensajes.
          </p>
        )}
      </div>

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="primary"
          onClick={send}
          disabled={!lead || sending || phase === "success"}
          aria-describedby={lead ? undefined : "whatsapp-no-lead"}
        >
          {sending ? (
            <Loader2 aria-hidden className="size-4 animate-spin" />
          ) : (
            <Send aria-hidden className="size-4" />
          )}
          {sending ? "Enviando..." : "Enviar mensajes de WhatsApp"}
        </Button>
      </div>

      <div aria-live="polite" className="mt-3 text-sm" data-testid="whatsapp-send-state">
        {sending && (
          <p className="text-slate-700">
            Enviando los mensajes por el outbox...
            {retrying !== null && ` El proveedor no respondió; reintentando (intento ${retrying}).`}
          </p>
        )}
        {phase === "success" && (
          <p className="flex items-center gap-2 font-medium text-brand-800">
            <CheckCircle2 aria-hidden className="size-4" />
            {WHATSAPP_SUCCESS_TEXT}
            {sentInTestMode && <span className="font-normal text-slate-600">(modo de prueba)</span>}
          </p>
        )}
      </div>
      {phase === "error" && (
        <div role="alert" className="mt-1 rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
          <p className="flex items-start gap-2 font-medium">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            {errorText}
          </p>
          <Button type="button" variant="secondary" onClick={send} className="mt-3 px-3 py-1.5 text-sm">
            <RotateCcw aria-hidden className="size-4" />
            Reintentar
          </Button>
        </div>
      )}

      <h3 className="mt-6 font-semibold" id="whatsapp-api-log">
        Registro de la API
      </h3>
      <p className="text-sm text-slate-600">
        Las últimas {API_LOG_SIZE} llamadas, de la más reciente a la más antigua.
      </p>
      {log.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Aún no hay llamadas.</p>
      ) : (
        <div
          role="region"
          aria-labelledby="whatsapp-api-log"
          // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
          tabIndex={0}
          className="mt-2 overflow-x-auto rounded-lg ring-1 ring-slate-200"
        >
          <table
            className="min-w-full divide-y divide-slate-200 text-left text-xs"
            data-testid="whatsapp-api-log"
          >
            <caption className="sr-only">
              Registro de la API de WhatsApp, de la llamada más reciente a la más antigua
            </caption>
            <thead className="bg-slate-50">
              <tr>
                {["Hora", "Endpoint", "Destino", "Estado", "messageId"].map((column) => (
                  <th key={column} scope="col" className="px-2 py-1.5 font-semibold text-slate-600">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {log.map((entry) => (
                <tr key={entry.id} data-testid="whatsapp-api-log-entry">
                  <td className="px-2 py-1.5 whitespace-nowrap">
                    <time dateTime={entry.time.iso}>{entry.time.label}</time>
                  </td>
                  <td className="px-2 py-1.5 font-mono whitespace-nowrap">{entry.endpoint}</td>
                  <td className="px-2 py-1.5 whitespace-nowrap">{entry.recipient}</td>
                  <td className="px-2 py-1.5">
                    <Badge tone={entry.tone}>{entry.statusLabel}</Badge>
                    {entry.testMode && <span className="ml-1 text-slate-600">(prueba)</span>}
                    {entry.error && <p className="mt-1 max-w-xs break-words text-red-800">{entry.error}</p>}
                  </td>
                  <td className="px-2 py-1.5 font-mono break-all">{entry.messageId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
