import {
  BellRing,
  CalendarDays,
  CalendarPlus,
  CircleAlert,
  History,
  Info,
  LoaderCircle,
  Phone,
} from "lucide-react";
import { useCallback, useId, useRef, useState } from "react";
import { Link, useNavigation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { WAITLIST_PATH } from "~/domain/waitlist";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { AppointmentCard } from "./appointment-card";
import type { AppointmentCardData, AppointmentsPageData } from "./appointment-types";
import { APPOINTMENTS_PATH, BookingDialog } from "./booking-dialog";
import { CancelDialog } from "./cancel-dialog";
import { ContactDialog } from "./contact-dialog";
import { RescheduleDialog } from "./reschedule-dialog";

type TabKey = "upcoming" | "history";
const TAB_ORDER: readonly TabKey[] = ["upcoming", "history"];

/** Mis Citas with real actions (ADR 005): booking, rescheduling and cancelling work, none is a dead button. */
export function AppointmentsPage({ data }: { data: AppointmentsPageData }) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === APPOINTMENTS_PATH;
  const [tab, setTab] = useState<TabKey>("upcoming");
  const [dialog, setDialog] = useState<null | "book" | "contact">(null);
  const [rescheduling, setRescheduling] = useState<AppointmentCardData | null>(null);
  const [cancelling, setCancelling] = useState<AppointmentCardData | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const fallbackFocus = useCallback(() => heading.current, []);
  const closeDialog = useCallback(() => setDialog(null), []);
  const closeReschedule = useCallback(() => setRescheduling(null), []);
  const closeCancel = useCallback(() => setCancelling(null), []);
  const showUpcoming = useCallback(() => setTab("upcoming"), []);

  const hasScheduled = data.upcoming.some((appointment) => appointment.status === "scheduled");
  const bookingNoticeId = useId();
  // The server refuses these bookings anyway; the buttons say so up front and point at the reason.
  const bookingButton = data.booking.allowed ? {} : { disabled: true, "aria-describedby": bookingNoticeId };

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold focus:outline-none">
            Mis Citas
          </h1>
          <p className="mt-1 text-slate-700">
            Gestiona tus citas dentales y revisa tu historial de tratamientos.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" aria-haspopup="dialog" onClick={() => setDialog("book")} {...bookingButton}>
            <CalendarPlus aria-hidden className="size-5" />
            Agendar Nueva Cita
          </Button>
          <Button
            type="button"
            variant="secondary"
            aria-haspopup="dialog"
            onClick={() => setDialog("contact")}
          >
            <Phone aria-hidden className="size-5" />
            Contactar Clínica
          </Button>
          <Link to={WAITLIST_PATH} className={buttonClass("secondary")} data-testid="waitlist-link">
            <BellRing aria-hidden className="size-5" />
            Avísame si se libera una hora antes
          </Link>
        </div>
      </div>

      {!data.booking.allowed && (
        <div
          id={bookingNoticeId}
          className="mt-6 flex gap-3 rounded-xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200"
          data-testid="booking-closed"
        >
          <CircleAlert aria-hidden className="size-5 shrink-0 text-amber-700" />
          <p>
            {data.booking.message}
            {data.booking.reason === "unverified" && (
              <>
                {" "}
                <Link to="/paciente" className="font-medium underline underline-offset-2">
                  Ir a Mi Portal
                </Link>
              </>
            )}
          </p>
        </div>
      )}

      {data.booking.allowed && data.bookingNotice && (
        <p
          className="mt-6 flex gap-3 rounded-xl bg-sky-50 p-4 text-sky-950 ring-1 ring-sky-200"
          data-testid="booking-notice"
        >
          <CircleAlert aria-hidden className="size-5 shrink-0 text-sky-700" />
          {data.bookingNotice}
        </p>
      )}

      {loading ? (
        <div
          role="status"
          className="flex flex-col items-center gap-3 py-20 text-slate-700"
          data-testid="appointments-loading"
        >
          <LoaderCircle
            aria-hidden
            className="size-10 animate-spin text-brand-700 motion-reduce:animate-none"
          />
          Cargando tus citas...
        </div>
      ) : (
        <AppointmentTabs
          current={tab}
          onChange={setTab}
          labels={{
            upcoming: `Próximas Citas (${data.upcoming.length})`,
            history: `Historial (${data.history.length})`,
          }}
          panels={{
            upcoming: (
              <>
                {hasScheduled && (
                  <p
                    className="mb-4 flex gap-3 rounded-lg bg-sky-50 p-4 text-sm text-sky-950 ring-1 ring-sky-200"
                    data-testid="confirm-notice"
                  >
                    <Info aria-hidden className="size-5 shrink-0 text-sky-700" />
                    <span>
                      Recuerda confirmar tus citas programadas llamando a la clínica o usando nuestro{" "}
                      <Link to="/paciente/asesor" className="font-medium underline underline-offset-2">
                        asesor virtual
                      </Link>
                      .
                    </span>
                  </p>
                )}
                {data.upcoming.length === 0 ? (
                  <EmptyState
                    icon={<CalendarDays aria-hidden className="mx-auto size-12 text-slate-400" />}
                    title="No tienes citas programadas"
                    hint="Agenda tu próxima cita para mantener tu salud dental al día"
                  >
                    <Button
                      type="button"
                      className="mt-5"
                      aria-haspopup="dialog"
                      onClick={() => setDialog("book")}
                      {...bookingButton}
                    >
                      <CalendarPlus aria-hidden className="size-5" />
                      Agendar Cita
                    </Button>
                  </EmptyState>
                ) : (
                  <CardList
                    appointments={data.upcoming}
                    onReschedule={setRescheduling}
                    onCancel={setCancelling}
                  />
                )}
              </>
            ),
            history:
              data.history.length === 0 ? (
                <EmptyState
                  icon={<History aria-hidden className="mx-auto size-12 text-slate-400" />}
                  title="No hay historial de citas"
                  hint="Tus citas anteriores aparecerán aquí una vez que comiences a usar nuestros servicios."
                />
              ) : (
                <CardList
                  appointments={data.history}
                  onReschedule={setRescheduling}
                  onCancel={setCancelling}
                />
              ),
          }}
        />
      )}

      <BookingDialog
        open={dialog === "book"}
        onClose={closeDialog}
        onBooked={showUpcoming}
        fallbackFocus={fallbackFocus}
        treatments={data.treatments}
        dentists={data.dentists}
        openDays={data.openDays}
      />
      <ContactDialog open={dialog === "contact"} onClose={closeDialog} />
      <RescheduleDialog
        appointment={rescheduling}
        openDays={data.openDays}
        onClose={closeReschedule}
        fallbackFocus={fallbackFocus}
      />
      <CancelDialog appointment={cancelling} onClose={closeCancel} fallbackFocus={fallbackFocus} />
    </div>
  );
}

function CardList({
  appointments,
  onReschedule,
  onCancel,
}: {
  appointments: AppointmentCardData[];
  onReschedule: (appointment: AppointmentCardData) => void;
  onCancel: (appointment: AppointmentCardData) => void;
}) {
  return (
    <ul className="space-y-4">
      {appointments.map((appointment) => (
        <li key={appointment.id}>
          <AppointmentCard appointment={appointment} onReschedule={onReschedule} onCancel={onCancel} />
        </li>
      ))}
    </ul>
  );
}

function EmptyState({
  icon,
  title,
  hint,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  hint: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 p-10 text-center">
      {icon}
      <h3 className="mt-3 text-lg font-semibold text-slate-800">{title}</h3>
      <p className="mt-1 text-slate-700">{hint}</p>
      {children}
    </div>
  );
}

/** 'Próximas Citas' and 'Historial': both panels stay in the page, so a card's buttons are there to return focus to. */
function AppointmentTabs({
  current,
  onChange,
  labels,
  panels,
}: {
  current: TabKey;
  onChange: (tab: TabKey) => void;
  labels: Record<TabKey, string>;
  panels: Record<TabKey, React.ReactNode>;
}) {
  return (
    <Tabs value={current} onValueChange={(value) => onChange(value as TabKey)} className="mt-8">
      <TabsList aria-label="Mis citas">
        {TAB_ORDER.map((tab) => (
          <TabsTrigger key={tab} value={tab}>
            {labels[tab]}
          </TabsTrigger>
        ))}
      </TabsList>
      {TAB_ORDER.map((tab) => (
        <TabsContent key={tab} value={tab} forceMount className="pt-6" data-testid={`panel-${tab}`}>
          {panels[tab]}
        </TabsContent>
      ))}
    </Tabs>
  );
}
