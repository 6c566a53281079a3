import { describe, expect, it } from "vitest";
import {
  calendarEvent,
  calendarFileName,
  calendarIcs,
  googleCalendarUrl,
  outlookCalendarUrl,
} from "./calendar-event";
import { clinicInstant } from "./clinic-time";

const facts = (startsAt: Date) => ({
  appointmentId: "0b3f6c1e-0000-4000-8000-000000000001",
  startsAt,
  endsAt: new Date(startsAt.getTime() + 45 * 60_000),
  treatment: "Limpieza dental",
  dentist: "Dr. Inés Soto",
  clinicName: "Río Clínica",
  clinicAddress: "Av. Providencia 1234, piso 18, oficina 189, Providencia, Santiago",
  clinicPhone: "+56 2 2345 6789",
  manageUrl: "https://clinica.example/paciente/citas",
  uidDomain: "clinica.example",
});

/** The .ics with its folded lines joined back (RFC 5545 folds at 75 octets with CRLF + space). */
const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, "");

describe("the appointment as a calendar event", () => {
  it.each([
    // Summer time (UTC-3), winter time (UTC-4), and the Sundays of both 2026 clock changes.
    ["2026-01-15", "09:30", "20260115T123000Z", "20260115T131500Z"],
    ["2026-07-15", "09:30", "20260715T133000Z", "20260715T141500Z"],
    ["2026-04-05", "10:00", "20260405T140000Z", "20260405T144500Z"],
    ["2026-09-06", "10:00", "20260906T130000Z", "20260906T134500Z"],
  ])("%s %s Santiago is written in UTC: %s to %s", (date, time, start, end) => {
    const event = calendarEvent(facts(clinicInstant(date, time)));
    const ics = unfolded(calendarIcs(event, new Date("2026-01-01T00:00:00Z")));
    expect(ics).toContain(`DTSTART:${start}`);
    expect(ics).toContain(`DTEND:${end}`);
    expect(googleCalendarUrl(event)).toContain(`dates=${start}%2F${end}`);
    expect(new URL(outlookCalendarUrl(event)).searchParams.get("startdt")).toBe(
      clinicInstant(date, time).toISOString(),
    );
  });

  it("carries the clinic's address, a display alarm two hours before, the treatment and a stable UID", () => {
    const start = clinicInstant("2026-03-10", "11:00");
    const event = calendarEvent(facts(start));
    const ics = unfolded(calendarIcs(event, new Date("2026-03-01T00:00:00Z")));
    expect(ics.startsWith("BEGIN:VCALENDAR")).toBe(true);
    expect(ics).toContain(
      "LOCATION:Av. Providencia 1234\\, piso 18\\, oficina 189\\, Providencia\\, Santiago",
    );
    expect(ics).toContain("SUMMARY:Limpieza dental · Río Clínica");
    expect(ics).toMatch(/BEGIN:VALARM\r\n[\s\S]*ACTION:DISPLAY[\s\S]*TRIGGER:-PT2H[\s\S]*END:VALARM/);
    expect(ics).toContain(`UID:cita-0b3f6c1e-0000-4000-8000-000000000001-${start.getTime()}@clinica.example`);
    expect(ics).toContain("\r\n");
    const google = new URL(googleCalendarUrl(event));
    expect(google.host).toBe("calendar.google.com");
    expect(google.searchParams.get("location")).toBe(facts(start).clinicAddress);
    expect(google.searchParams.get("text")).toBe("Limpieza dental · Río Clínica");
    const outlook = new URL(outlookCalendarUrl(event));
    expect(outlook.host).toBe("outlook.live.com");
    expect(outlook.searchParams.get("location")).toBe(facts(start).clinicAddress);
    expect(calendarFileName(start)).toBe("cita-2026-03-10.ics");
  });

  it("names the file after the clinic's day, also in the evening, when UTC is already on the next day", () => {
    // 21:30 on 10 March in Santiago (summer, UTC-3) is 00:30 on 11 March in UTC.
    expect(calendarFileName(new Date("2026-03-11T00:30:00Z"))).toBe("cita-2026-03-10.ics");
  });
});
