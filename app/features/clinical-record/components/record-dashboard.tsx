import { Download, Eye } from "lucide-react";
import { Form } from "react-router";
import { FormAlert, InputField } from "~/components/form-fields";
import { Badge as BadgePill } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { PAYMENTS_OFF_NOTICE } from "~/features/payments/patient-payments-dto";
import type {
  Badge,
  BalanceActionFailure,
  ClinicalRecordDto,
  RecordAccessItem,
  RecordBalance,
  RecordFile,
  RecordList,
} from "../record-schema";

export function StatusBadge({ badge }: { badge: Badge }) {
  return (
    <BadgePill tone={badge.tone} data-tone={badge.tone}>
      {badge.label}
    </BadgePill>
  );
}

function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div className="mt-3">
      <div className="flex justify-between text-sm text-slate-700">
        <span>Progreso</span>
        <span>{value}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={`Progreso de ${label}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="mt-1 h-2.5 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-700" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

/** A tab's body: its own error, its empty state, or its items. */
function ListBody<Item>({
  list,
  empty,
  children,
}: {
  list: RecordList<Item>;
  empty: string;
  children: (items: Item[]) => React.ReactNode;
}) {
  if (!list.ok) {
    return (
      <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm font-medium text-red-800">
        {list.message}
      </p>
    );
  }
  if (list.items.length === 0)
    return <p className="rounded-lg bg-slate-50 p-6 text-center text-slate-600">{empty}</p>;
  return <>{children(list.items)}</>;
}

const card = "rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200";

function FileCards({ files }: { files: RecordFile[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {files.map((file) => (
        <li key={file.id} className={card}>
          <p className="font-semibold">{file.name}</p>
          <p className="mt-1 text-sm text-slate-600">
            {file.type} · {file.date}
          </p>
          <div className="mt-3 flex gap-2">
            <a
              href={file.href}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
              aria-label={`Ver ${file.name} (se abre en una pestaña nueva)`}
            >
              <Eye aria-hidden className="size-4" /> Ver
            </a>
            <a
              href={`${file.href}${file.href.includes("?") ? "&" : "?"}descargar=1`}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
              aria-label={`Descargar ${file.name} (se abre en una pestaña nueva)`}
            >
              <Download aria-hidden className="size-4" /> Descargar
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The patient's 'Pagar saldo': whether online payment is on, the refusal of the last try and whether one is on its way. */
export interface BalancePaymentState {
  online: boolean;
  failure: BalanceActionFailure | undefined;
  busy: boolean;
}

function BalanceCard({ item, state }: { item: RecordBalance; state: BalancePaymentState }) {
  const failure = state.failure?.budgetId === item.budgetId ? state.failure : undefined;
  const amountError = failure?.fieldErrors?.amount?.[0];
  const formError = failure && !amountError ? failure.message : undefined;
  return (
    <li className={card}>
      <p className="font-semibold">{item.name}</p>
      <p className="mt-1 text-slate-800">
        Saldo pendiente: <strong className="text-lg">{item.balanceLabel}</strong>
      </p>
      {item.paidOnlineLabel && (
        <p className="mt-1 text-sm text-slate-600">
          Pagado en línea y aún no registrado en tu ficha: {item.paidOnlineLabel}. La clínica lo registrará en
          Dentalink.
        </p>
      )}
      {item.balance > 0 &&
        (state.online ? (
          <Form
            method="post"
            noValidate
            className="mt-3 space-y-3"
            aria-label={`Pagar saldo de ${item.name}`}
          >
            <input type="hidden" name="intent" value="pay-balance" />
            <input type="hidden" name="budgetId" value={item.budgetId} />
            <FormAlert message={formError} />
            <InputField
              label="Monto a pagar (en pesos)"
              name="amount"
              inputMode="numeric"
              autoComplete="off"
              maxLength={20}
              defaultValue={item.amountInput}
              hint={`Puedes pagar todo el saldo o una parte, hasta ${item.balanceLabel}.`}
              error={amountError}
              required
              className="max-w-xs"
            />
            <Button type="submit" disabled={state.busy}>
              Pagar saldo
            </Button>
          </Form>
        ) : (
          <p className="mt-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{PAYMENTS_OFF_NOTICE}</p>
        ))}
    </li>
  );
}

/** The budgets with a balance, above the payments Dentalink lists; a failed read of them is its own message. */
function BalanceSection({ list, state }: { list: RecordList<RecordBalance>; state: BalancePaymentState }) {
  return (
    <section aria-labelledby="saldos-pendientes" className="mb-6">
      <h2 id="saldos-pendientes" className="mb-3 text-lg font-bold">
        Saldos de presupuestos
      </h2>
      {list.ok ? (
        <ul className="space-y-3">
          {list.items.map((item) => (
            <BalanceCard key={item.budgetId} item={item} state={state} />
          ))}
        </ul>
      ) : (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm font-medium text-red-800">
          {list.message}
        </p>
      )}
    </section>
  );
}

/**
 * The five tabs of a record: citas, pagos, tratamientos, documentos, radiografias. The patient's own page passes
 * `balancePayment`: the Pagos tab then offers 'Pagar saldo' on each budget with a balance.
 */
export function RecordTabs({
  record,
  balancePayment,
}: {
  record: ClinicalRecordDto;
  balancePayment?: BalancePaymentState;
}) {
  const showBalances =
    balancePayment !== undefined &&
    record.balances !== undefined &&
    !(record.balances.ok && record.balances.items.length === 0);
  return (
    // A refused 'Pagar saldo' answered without JavaScript re-renders the page: open it on the Pagos tab, where the
    // message is.
    <Tabs defaultValue={balancePayment?.failure ? "pagos" : "citas"} className="mt-6">
      <TabsList aria-label="Secciones de la ficha">
        <TabsTrigger value="citas">Citas</TabsTrigger>
        <TabsTrigger value="pagos">Pagos</TabsTrigger>
        <TabsTrigger value="tratamientos">Tratamientos</TabsTrigger>
        <TabsTrigger value="documentos">Documentos</TabsTrigger>
        <TabsTrigger value="radiografias">Radiografías</TabsTrigger>
      </TabsList>
      <TabsContent value="citas" className="pt-4">
        <ListBody list={record.appointments} empty="No hay citas registradas.">
          {(items) => (
            <ul className="space-y-3">
              {items.map((item) => (
                <li key={item.id} className={card}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold">{item.treatment}</p>
                    <StatusBadge badge={item.status} />
                  </div>
                  <p className="mt-1 text-sm text-slate-700">
                    {item.date} · {item.time} · {item.doctor} · {item.office}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </ListBody>
      </TabsContent>
      <TabsContent value="pagos" className="pt-4">
        {showBalances && record.balances && balancePayment && (
          <>
            <BalanceSection list={record.balances} state={balancePayment} />
            <h2 className="mb-3 text-lg font-bold">Pagos registrados</h2>
          </>
        )}
        <ListBody list={record.payments} empty="No hay pagos registrados.">
          {(items) => (
            <ul className="space-y-3">
              {items.map((item) => (
                <li key={item.id} className={card}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold">{item.concept}</p>
                    <StatusBadge badge={item.status} />
                  </div>
                  <p className="mt-1 text-lg font-bold">{item.amount}</p>
                  <p className="text-sm text-slate-700">
                    {item.date} · {item.method}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </ListBody>
      </TabsContent>
      <TabsContent value="tratamientos" className="pt-4">
        <ListBody list={record.treatments} empty="No hay tratamientos registrados.">
          {(items) => (
            <ul className="space-y-3">
              {items.map((item) => (
                <li key={item.id} className={card}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold">{item.name}</p>
                    <StatusBadge badge={item.status} />
                  </div>
                  {item.description && <p className="mt-1 text-sm text-slate-700">{item.description}</p>}
                  <p className="mt-1 text-sm text-slate-600">
                    Inicio: {item.startDate}
                    {item.endDate && ` · Término: ${item.endDate}`}
                  </p>
                  <ProgressBar value={item.progress} label={item.name} />
                </li>
              ))}
            </ul>
          )}
        </ListBody>
      </TabsContent>
      <TabsContent value="documentos" className="pt-4">
        <ListBody list={record.documents} empty="No hay documentos disponibles.">
          {(items) => <FileCards files={items} />}
        </ListBody>
      </TabsContent>
      <TabsContent value="radiografias" className="pt-4">
        <ListBody list={record.xrays} empty="No hay radiografías disponibles.">
          {(items) => <FileCards files={items} />}
        </ListBody>
      </TabsContent>
    </Tabs>
  );
}

export function PatientSummary({ record }: { record: ClinicalRecordDto }) {
  const { patient } = record;
  return (
    <dl className="mt-4 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
      <div>
        <dt className="text-sm text-slate-600">Paciente</dt>
        <dd className="font-semibold">{patient.name}</dd>
      </div>
      <div>
        <dt className="text-sm text-slate-600">RUT</dt>
        <dd className="font-semibold">{patient.rut}</dd>
      </div>
      {patient.email && (
        <div>
          <dt className="text-sm text-slate-600">Correo</dt>
          <dd>{patient.email}</dd>
        </div>
      )}
      {patient.phone && (
        <div>
          <dt className="text-sm text-slate-600">Teléfono</dt>
          <dd>{patient.phone}</dd>
        </div>
      )}
    </dl>
  );
}

/** Who else opened the patient's record (names and dates, never addresses). */
export function RecordOpenings({ accesses }: { accesses: RecordAccessItem[] }) {
  return (
    <section aria-labelledby="accesos" className="mt-10">
      <h2 id="accesos" className="text-xl font-bold">
        Quién abrió tu ficha
      </h2>
      {accesses.length === 0 ? (
        <p className="mt-2 text-slate-600">Nadie más ha abierto ni vinculado tu ficha desde el portal.</p>
      ) : (
        <ul className="mt-3 space-y-2" data-testid="record-openings">
          {accesses.map((access) => (
            <li key={access.id} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
              <span className="font-semibold">{access.who}</span> ({access.role}) · {access.what} ·{" "}
              {access.when}
              {access.reason && <span className="block text-slate-600">Motivo: {access.reason}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
