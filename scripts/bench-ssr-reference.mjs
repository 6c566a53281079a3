// The reference row of `npm run bench:ssr`: React Router's own server rendering of a minimal app, on this machine,
// in a process of its own (as the app's server is). Issue 25 set the app's budget beside it: "React Router's own SSR
// reaches about 1,000 requests/s per core" where the landing rendered 410. Nothing of the app is here: a root layout
// as React Router's template has it (<Meta>, <Links>, <ScrollRestoration>, <Scripts>, a title and a description), an
// index page with a heading, a paragraph and a list of four links (no class names: Tailwind would find them here
// and add their rules to the app's stylesheet), the template's entry.server (renderToPipeableStream
// into a PassThrough) and @react-router/node's request listener on node:http (no Express). The build is made here
// in memory: the asset paths it names are never fetched. Usage: node scripts/bench-ssr-reference.mjs PORT
import { createServer } from "node:http";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, createRequestListener } from "@react-router/node";
import { createElement as h } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, ServerRouter } from "react-router";

function Root() {
  return h(
    "html",
    { lang: "en" },
    h(
      "head",
      null,
      h("meta", { charSet: "utf-8" }),
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h(Meta),
      h(Links),
    ),
    h("body", null, h(Outlet), h(ScrollRestoration), h(Scripts)),
  );
}

const resources = [
  ["https://reactrouter.com/docs", "React Router Docs"],
  ["https://rmx.as/discord", "Join Discord"],
  ["https://github.com/remix-run/react-router", "GitHub"],
  ["https://reactrouter.com/start/framework/installation", "Installation"],
];

function Home() {
  return h(
    "main",
    null,
    h(
      "div",
      null,
      h("h1", null, "Welcome to React Router"),
      h("p", null, "What's next?"),
      h(
        "nav",
        null,
        h(
          "ul",
          null,
          resources.map(([href, text]) => h("li", { key: href }, h("a", { href, target: "_blank" }, text))),
        ),
      ),
    ),
  );
}

/** The template's app/entry.server.tsx (without its bot check: autocannon is not a bot either way). */
function handleRequest(request, responseStatusCode, responseHeaders, routerContext) {
  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      h(ServerRouter, { context: routerContext, url: request.url }),
      {
        onShellReady() {
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError: reject,
        onError() {
          responseStatusCode = 500;
        },
      },
    );
    setTimeout(abort, 6_000);
  });
}

const routeAssets = (id, extra) => ({
  id,
  module: `/assets/${id.replace("/", "-")}.js`,
  imports: ["/assets/chunk.js"],
  css: [],
  hasAction: false,
  hasLoader: false,
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasDefaultExport: true,
  hasErrorBoundary: false,
  ...extra,
});

const build = {
  entry: { module: { default: handleRequest, streamTimeout: 5_000 } },
  routes: {
    root: {
      id: "root",
      path: "",
      module: {
        default: Root,
        meta: () => [
          { title: "New React Router App" },
          { name: "description", content: "Welcome to React Router!" },
        ],
      },
    },
    "routes/home": { id: "routes/home", parentId: "root", index: true, module: { default: Home } },
  },
  assets: {
    entry: { module: "/assets/entry.client.js", imports: ["/assets/chunk.js"], css: [] },
    routes: {
      root: routeAssets("root", { path: "" }),
      "routes/home": routeAssets("routes/home", { parentId: "root", index: true }),
    },
    url: "/assets/manifest.js",
    version: "reference",
  },
  assetsBuildDirectory: "build/client",
  publicPath: "/",
  basename: "/",
  future: {},
  isSpaMode: false,
  ssr: true,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  allowedActionOrigins: false,
};

const port = Number(process.argv[2] ?? 3320);
const server = createServer(createRequestListener({ build, mode: "production" }));
server.listen(port, "127.0.0.1", () => console.log(JSON.stringify({ msg: "reference listening", port })));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
