import type { Route } from "./+types/appointment-slots";
import { getDb } from "~/db/client.server";
import { slotQuerySchema, type SlotsResponse } from "~/features/appointments/appointment-schema";
import { availableSlots } from "~/features/appointments/appointment-service.server";
import { actionFailure, actionSuccess } from "~/lib/base/action-result";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";

function answer(body: SlotsResponse, status = 200) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * GET /paciente/citas/horarios?tratamiento=&dentista=&fecha= → the free start times, for signed-in patients; times
 * the patient already holds (with any dentist) are left out.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const params = new URL(args.request.url).searchParams;
  const parsed = slotQuerySchema.safeParse({
    tratamiento: params.get("tratamiento") ?? undefined,
    dentista: params.get("dentista") ?? undefined,
    fecha: params.get("fecha") ?? undefined,
  });
  if (!parsed.success) {
    return answer(
      actionFailure("VALIDATION", parsed.error.issues[0]?.message ?? "La consulta no es válida."),
      400,
    );
  }
  const { tratamiento, dentista, fecha } = parsed.data;
  try {
    // The service refuses a date beyond the booking horizon (400).
    const slots = await availableSlots(await getDb(), {
      treatmentSlug: tratamiento,
      dentistId: dentista,
      date: fecha,
      forPatientId: user.id,
    });
    return answer(actionSuccess({ date: fecha, slots: slots.map((slot) => ({ time: slot.time })) }));
  } catch (error) {
    if (isAppError(error)) return answer(actionFailure(error.code, error.message), error.status);
    throw error;
  }
}
