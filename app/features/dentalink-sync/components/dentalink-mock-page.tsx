import { DashboardHeader } from "~/components/dashboard-header";
import { formatDate } from "~/domain/format";

export interface MockPageData {
  patients: Array<{
    id: string;
    name: string;
    rut: string | null;
    email: string | null;
    phone: string | null;
    created: boolean;
  }>;
  appointments: Array<{
    id: string;
    patientName: string;
    dentistName: string;
    date: string;
    time: string;
    state: string;
    created: boolean;
  }>;
}

const th = "px-3 py-2 text-left text-sm font-semibold text-slate-800";
const td = "px-3 py-2 align-top text-sm text-slate-800";

function Origin({ created }: { created: boolean }) {
  return created ? (
    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
      Sincronizado
    </span>
  ) : (
    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-800">Demo</span>
  );
}

/** 'Ver en Dentalink' in mock mode: what the mock holds, read-only. */
export function DentalinkMockPage({ data }: { data: MockPageData }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader
        title="Dentalink (modo demostración)"
        description="Sin API key, Dentalink se simula con datos de demostración. Aquí se ven sus pacientes y citas, incluidos los creados desde la pestaña Dentalink. Solo lectura."
        back={{ to: "/funnel?tab=dentalink", label: "Volver a Dentalink" }}
      />

      <section aria-labelledby="mock-pacientes" className="mt-10">
        <h2 id="mock-pacientes" className="text-xl font-semibold">
          Pacientes
        </h2>
        <div className="mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full" data-testid="mock-patients">
            <caption className="sr-only">
              Pacientes del Dentalink de demostración, los más recientes primero
            </caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={th}>
                  ID
                </th>
                <th scope="col" className={th}>
                  Nombre
                </th>
                <th scope="col" className={th}>
                  RUT
                </th>
                <th scope="col" className={th}>
                  E-mail
                </th>
                <th scope="col" className={th}>
                  Teléfono
                </th>
                <th scope="col" className={th}>
                  Origen
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.patients.map((patient) => (
                <tr key={patient.id}>
                  <td className={td}>{patient.id}</td>
                  <td className={td}>{patient.name}</td>
                  <td className={td}>{patient.rut ?? "—"}</td>
                  <td className={`${td} break-all`}>{patient.email ?? "—"}</td>
                  <td className={td}>{patient.phone ?? "—"}</td>
                  <td className={td}>
                    <Origin created={patient.created} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="mock-citas" className="mt-10">
        <h2 id="mock-citas" className="text-xl font-semibold">
          Citas
        </h2>
        <div className="mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full" data-testid="mock-appointments">
            <caption className="sr-only">
              Citas del Dentalink de demostración, las más recientes primero
            </caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={th}>
                  ID
                </th>
                <th scope="col" className={th}>
                  Paciente
                </th>
                <th scope="col" className={th}>
                  Dentista
                </th>
                <th scope="col" className={th}>
                  Fecha
                </th>
                <th scope="col" className={th}>
                  Hora
                </th>
                <th scope="col" className={th}>
                  Estado
                </th>
                <th scope="col" className={th}>
                  Origen
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.appointments.map((appointment) => (
                <tr key={appointment.id}>
                  <td className={td}>{appointment.id}</td>
                  <td className={td}>{appointment.patientName}</td>
                  <td className={td}>{appointment.dentistName}</td>
                  <td className={td}>{formatDate(appointment.date)}</td>
                  <td className={td}>{appointment.time}</td>
                  <td className={td}>{appointment.state}</td>
                  <td className={td}>
                    <Origin created={appointment.created} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
