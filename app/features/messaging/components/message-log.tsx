import { AlertTriangle, Filter, MessageCircle } from "lucide-react";
import { Form, Link } from "react-router";
import { InputField, SelectField } from "~/components/form-fields";
import { buttonClass } from "~/components/ui/button";
import { AdminTable, Badge, tdClass } from "~/components/admin-ui";
import { DashboardHeader } from "~/components/dashboard-header";
import type { MessageLogFilters, MessageLogPage } from "../whatsapp-log-dto";
import { purposeLabels, statusLabels, whatsAppMessageStatuses, whatsAppPurposes } from "../whatsapp-labels";

export const MESSAGES_PATH = "/funnel/mensajes";

function pageHref(filters: MessageLogFilters, desde?: string): string {
  const params = new URLSearchParams();
  if (filters.estado) params.set("estado", filters.estado);
  if (filters.proposito) params.set("proposito", filters.proposito);
  if (filters.telefono) params.set("telefono", filters.telefono);
  if (desde) params.set("desde", desde);
  const search = params.toString();
  return search ? `${MESSAGES_PATH}?${search}` : MESSAGES_PATH;
}

function isFiltered(filters: MessageLogFilters): boolean {
  return Boolean(filters.estado || filters.proposito || filters.telefono);
}

/** /funnel/mensajes: the WhatsApp messages the clinic sent, newest first, with their status. */
export function MessageLog({ page }: { page: MessageLogPage }) {
  const { filters, rows, error } = page;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader
        title={
          <>
            <MessageCircle aria-hidden className="size-7 text-brand-700" />
            Mensajes de WhatsApp
          </>
        }
        description="Los mensajes enviados por la clínica, del más reciente al más antiguo, con su estado de entrega."
        back={{ to: "/funnel", label: "Volver al Funnel" }}
      />

      <Form
        method="get"
        role="search"
        aria-label="Filtrar mensajes"
        className="mt-8 grid items-end gap-4 rounded-2xl border border-slate-200 bg-white p-5 sm:grid-cols-4"
      >
        <SelectField label="Estado" name="estado" defaultValue={filters.estado}>
          <option value="">Todos</option>
          {whatsAppMessageStatuses.map((status) => (
            <option key={status} value={status}>
              {statusLabels[status]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Propósito" name="proposito" defaultValue={filters.proposito}>
          <option value="">Todos</option>
          {whatsAppPurposes.map((purpose) => (
            <option key={purpose} value={purpose}>
              {purposeLabels[purpose]}
            </option>
          ))}
        </SelectField>
        <InputField
          label="Teléfono"
          name="telefono"
          type="tel"
          inputMode="tel"
          placeholder="+56 9 1234 5678"
          maxLength={30}
          defaultValue={filters.telefono}
        />
        <div className="flex gap-2">
          <button type="submit" className={buttonClass("primary")}>
            <Filter aria-hidden className="size-4" />
            Filtrar
          </button>
          {isFiltered(filters) && (
            <Link to={MESSAGES_PATH} className={buttonClass("secondary")}>
              Limpiar
            </Link>
          )}
        </div>
      </Form>

      {error ? (
        <p
          role="alert"
          className="mt-6 flex items-start gap-2 rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800 ring-1 ring-red-200"
          data-testid="messages-error"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
          {error}
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600">
          {isFiltered(filters)
            ? "No hay mensajes con estos filtros."
            : "Aún no se ha enviado ningún mensaje."}
        </p>
      ) : (
        <div className="mt-6">
          <AdminTable
            label="Mensajes de WhatsApp"
            caption="Mensajes de WhatsApp, del más reciente al más antiguo"
            columns={["Fecha", "Propósito", "Destinatario", "Mensaje", "Modo de prueba", "Estado"]}
            testId="messages-table"
          >
            {rows.map((row) => (
              <tr key={row.id} data-testid="message-row" data-message-id={row.id}>
                <td className={tdClass}>
                  <time dateTime={row.created.iso} className="whitespace-nowrap">
                    {row.created.label}
                  </time>
                </td>
                <td className={tdClass}>{row.purposeLabel}</td>
                <td className={`${tdClass} whitespace-nowrap`}>{row.recipient}</td>
                <td className={`${tdClass} max-w-md`}>
                  {row.kind === "template" ? (
                    <>
                      <span className="font-medium">Plantilla:</span> <code>{row.content}</code>
                      {row.placeholders.length > 0 && (
                        <span className="block text-xs text-slate-600">{row.placeholders.join(" · ")}</span>
                      )}
                    </>
                  ) : (
                    <span className="whitespace-pre-line">{row.content}</span>
                  )}
                </td>
                <td className={tdClass}>{row.testMode ? <Badge tone="info">Prueba</Badge> : "No"}</td>
                <td className={tdClass}>
                  <Badge tone={row.tone}>{row.statusLabel}</Badge>
                  {row.delivered && (
                    <p className="mt-1 text-xs whitespace-nowrap text-slate-600">
                      Entregado: <time dateTime={row.delivered.iso}>{row.delivered.label}</time>
                    </p>
                  )}
                  {row.error && <p className="mt-1 max-w-xs text-xs break-words text-red-800">{row.error}</p>}
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}

      {(page.next || page.paged) && (
        <nav aria-label="Páginas de mensajes" className="mt-4 flex flex-wrap gap-3">
          {page.paged && (
            <Link to={pageHref(filters)} className={buttonClass("secondary")}>
              Volver a los más recientes
            </Link>
          )}
          {page.next && (
            <Link to={pageHref(filters, page.next)} className={buttonClass("secondary")}>
              Mensajes más antiguos
            </Link>
          )}
        </nav>
      )}
      <p className="mt-2 text-sm text-slate-600">Se muestran hasta {page.pageSize} mensajes por página.</p>
    </div>
  );
}
