import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";

export default [
  index("routes/_public/home.tsx"),
  route("auth", "routes/_auth/auth.tsx"),
  route("politica-privacidad", "routes/_public/privacy-policy.tsx"),
  route("terminos-servicio", "routes/_public/terms-of-service.tsx"),
  route("eliminar-datos", "routes/_public/data-rights-request.tsx"),
  route("devolver-llamada", "routes/_public/callback-request.tsx"),
  ...prefix("blog", [index("routes/_public/blog.tsx"), route(":slug", "routes/_public/blog-article.tsx")]),
  route("guias/:file", "routes/_public/guide-download.ts"),
  route("healthz", "routes/api/healthz.ts"),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),
  route("*", "routes/_public/not-found.tsx"),
] satisfies RouteConfig;
