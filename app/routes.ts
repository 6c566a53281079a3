import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // Public site
  index("routes/_public/home.tsx"),
  route("politica-privacidad", "routes/_public/privacy-policy.tsx"),
  route("terminos-servicio", "routes/_public/terms-of-service.tsx"),
  route("eliminar-datos", "routes/_public/data-rights-request.tsx"),
  // The e-mailed single-use link that proves control of the address (ADR 037)
  route("eliminar-datos/confirmar/:token", "routes/_public/data-rights-confirm.tsx"),
  route("devolver-llamada", "routes/_public/callback-request.tsx"),
  ...prefix("blog", [index("routes/_public/blog.tsx"), route(":slug", "routes/_public/blog-article.tsx")]),
  route("guias/:file", "routes/_public/guide-download.ts"),
  // A WhatsApp reminder's single-use links (ADR 018)
  route("cita/confirmar/:token", "routes/_public/appointment-confirm-link.tsx"),
  route("cita/cancelar/:token", "routes/_public/appointment-cancel-link.tsx"),
  // A waitlist offer's single-use link (ADR 040)
  route("lista-de-espera/oferta/:token", "routes/_public/waitlist-offer.tsx"),
  route("cita/hablar/:token", "routes/_public/appointment-callback-link.tsx"),

  // Accounts
  route("auth", "routes/_auth/auth.tsx"),
  route("auth/callback", "routes/_auth/oauth-callback.tsx"),
  route("auth/google", "routes/_auth/google-start.ts"),
  route("auth/continuar", "routes/_auth/continue.ts"),
  route("auth/estado", "routes/_auth/session-state.ts"),
  route("auth/salir", "routes/_auth/sign-out.ts"),
  route("auth/recuperar", "routes/_auth/forgot-password.tsx"),
  route("auth/restablecer", "routes/_auth/reset-password.tsx"),
  route("api/auth/*", "routes/api/auth.ts"),

  route("cuenta/seguridad", "routes/_account/security.tsx"),
  // Access and portability (Ley 21.719, ADR 037): 'Descargar mis datos' on both Mis Datos pages, own exports only
  route("mis-datos/exportaciones", "routes/_account/data-exports.ts"),
  route("mis-datos/exportaciones/:exportId", "routes/_account/data-export-status.ts"),
  route("mis-datos/exportaciones/:exportId/descarga", "routes/_account/data-export-download.ts"),
  // Mis Datos for any account, staff included (ADR 037)
  route("cuenta/datos", "routes/_account/my-data.tsx"),

  // Patient area
  layout("routes/_patient/patient-layout.tsx", [
    ...prefix("paciente", [
      index("routes/_patient/dashboard.tsx"),
      route("citas", "routes/_patient/appointments.tsx"),
      route("citas/horarios", "routes/_patient/appointment-slots.ts"),
      // The waitlist: ask to be told when an earlier time frees up (ADR 040)
      route("lista-de-espera", "routes/_patient/waitlist.tsx"),
      route("citas/:appointmentId/calendario.ics", "routes/_patient/appointment-calendar.ts"),
      route("asesor", "routes/_patient/advisor.tsx"),
      route("perfil", "routes/_patient/profile.tsx"),
      // Mis Datos: consents, objection to profiling, export and rights requests (ADR 037)
      route("datos", "routes/_patient/my-data.tsx"),
      route("ficha", "routes/_patient/clinical-record.tsx"),
      route("ficha/archivo/:id", "routes/_patient/clinical-record-file.ts"),
      // Online payments (ADR 036): Mis Pagos, its receipts and the outcome of a Webpay attempt
      route("pagos", "routes/_patient/payments.tsx"),
      route("pagos/:paymentId/comprobante", "routes/_patient/payment-receipt.ts"),
      route("pagos/resultado/:paymentId", "routes/_patient/payment-result.tsx"),
      // Intake and consent forms (ADR 041): own forms only, a submission's PDF by its id
      route("formularios", "routes/_patient/forms.tsx"),
      route("formularios/:assignmentId", "routes/_patient/form-fill.tsx"),
      route("formularios/envios/:submissionId/pdf", "routes/_patient/form-pdf.ts"),
    ]),
    // The page that posts token_ws to Webpay (ADR 036)
    route("pagos/webpay/ir/:paymentId", "routes/_patient/payment-checkout.tsx"),
  ]),
  // Webpay's return_url (ADR 036): no session (Webpay's cross-site POST carries no Lax cookie), keyed by the token
  route("pagos/webpay/retorno", "routes/_public/webpay-return.ts"),

  // Chat: the room page the widget's iframe loads (the only frameable page) and the staff inbox (ADR 028)
  route("chat/sala/:roomId", "routes/_chat/room.tsx"),
  route("equipo/conversaciones", "routes/_staff/conversations.tsx"),
  route("equipo/conversaciones/eventos", "routes/_staff/conversation-events.ts"),

  // Staff
  route("dentista", "routes/_dentist/agenda.tsx"),
  route("dentista/ficha", "routes/_dentist/clinical-record.tsx"),
  route("dentista/inasistencias", "routes/_dentist/no-show-mark.ts"),
  route("dentista/ficha/archivo/:id", "routes/_dentist/clinical-record-file.ts"),
  // A patient's submitted forms, audited reads (ADR 041)
  route("dentista/formularios/:submissionId", "routes/_dentist/form-submission.tsx"),
  route("dentista/formularios/:submissionId/pdf", "routes/_dentist/form-submission-pdf.ts"),
  route("funnel", "routes/_staff/funnel.tsx"),
  route("funnel/leads.csv", "routes/_staff/lead-export.ts"),
  route("funnel/mensajes", "routes/_staff/messages.tsx"),
  route("funnel/solicitudes", "routes/_staff/callback-requests.tsx"),
  route("funnel/leads/:id", "routes/_staff/lead-detail.tsx"),
  route("funnel/dentalink", "routes/_staff/dentalink-mock.tsx"),
  route("funnel/analytics.csv", "routes/_staff/analytics-csv.ts"),
  route("funnel/analytics/ajustes", "routes/_staff/analytics-settings.tsx"),
  route("test", "routes/_staff/test-dashboard.tsx"),
  route("test/whatsapp", "routes/_staff/test-whatsapp.ts"),
  layout("routes/_admin/admin-layout.tsx", [
    ...prefix("admin", [
      index("routes/_admin/users.tsx"),
      route("usuarios/:userId", "routes/_admin/user-detail.tsx"),
      route("solicitudes", "routes/_admin/requests.tsx"),
      route("privacidad", "routes/_admin/privacy-requests.tsx"),
      route("privacidad/:id", "routes/_admin/privacy-request-detail.tsx"),
      route("auditoria", "routes/_admin/audit-log.tsx"),
      route("agenda", "routes/_admin/day-agenda.tsx"),
      route("inasistencias", "routes/_admin/no-show-settings.tsx"),
      // The waitlist per day and 'Ofrecer esta hora' (ADR 040)
      route("lista-de-espera", "routes/_admin/waitlist.tsx"),
      route("recordatorios", "routes/_admin/reminder-settings.tsx"),
      // The breach register (Ley 21.719 art. 14 sexies, ADR 038)
      route("privacidad/incidentes", "routes/_admin/privacy-incidents.tsx"),
      route("privacidad/incidentes.csv", "routes/_admin/privacy-incidents-export.ts"),
      route("privacidad/incidentes/:incidentId", "routes/_admin/privacy-incident.tsx"),
    ]),
  ]),
  // Payments (ADR 036): outside the admin layout because an asesor may read them; each route guards itself
  route("admin/pagos", "routes/_admin/payments.tsx"),
  route("admin/pagos.csv", "routes/_admin/payments-export.ts"),

  // Demo only: e-mails kept in the outbox when no SMTP server is configured
  route("dev/correos", "routes/_dev/outbox.tsx"),
  // Demo only: Webpay's API and payment form, served by the fake when no Transbank commerce is configured (ADR 036)
  route("webpay-demo/*", "routes/_dev/webpay-demo.ts"),

  // Technical
  route("healthz", "routes/api/healthz.ts"),
  // Readiness and Prometheus metrics (issue 25, docs/operations.md)
  route("readyz", "routes/api/readyz.ts"),
  route("metrics", "routes/api/metrics.ts"),
  route("api/interno/respaldo", "routes/api/backup.ts"),
  route("api/whatsapp/reports", "routes/api/whatsapp-reports.ts"),
  route("api/whatsapp/inbound", "routes/api/whatsapp-inbound.ts"),
  // The guest chat platform the widget calls (answers JSON or SSE; `{detail}` on failure)
  ...prefix("api/chat", [
    route("guest", "routes/api/chat/guest.ts"),
    route("guest/:guestId", "routes/api/chat/guest-update.ts"),
    route("guest/login", "routes/api/chat/guest-login.ts"),
    route("guest/token/refresh", "routes/api/chat/guest-token-refresh.ts"),
    route("guest/room", "routes/api/chat/guest-room.ts"),
    route("guest/room/:roomId/members", "routes/api/chat/guest-room-members.ts"),
    route("rooms/:roomId", "routes/api/chat/room.ts"),
    route("rooms/:roomId/events", "routes/api/chat/room-events.ts"),
    route("rooms/:roomId/messages", "routes/api/chat/room-messages.ts"),
    route("rooms/:roomId/consent", "routes/api/chat/room-consent.ts"),
    route("rooms/:roomId/handoff", "routes/api/chat/room-handoff.ts"),
    route("*", "routes/api/chat/not-found.ts"),
  ]),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),
  route("*", "routes/_public/not-found.tsx"),
] satisfies RouteConfig;
