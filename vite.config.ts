import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const ROOT_ROUTE = fileURLToPath(new URL("app/root.tsx", import.meta.url));
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;

/**
 * Every page loads React, React Router and the root route with all it imports, yet the default splitting cut them
 * into ~15 files by which routes share each module (a separate 200-byte chunk per shared icon, React Router in five
 * parts). Two chunks instead, `framework` and `shell`: the same code on every page in 13 fewer requests and ~5 KiB
 * less gzip (no page loads a module it did not load before). Route modules and lazy parts are split as before.
 */
function clientChunks(): Plugin {
  return {
    name: "client-chunks",
    configEnvironment(name) {
      if (name !== "client") return;
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  { name: "framework", test: FRAMEWORK, priority: 2 },
                  // The root route module and, recursively, its static imports (not its lazy ones).
                  { name: "shell", test: (id) => id.replace(/\?.*$/, "") === ROOT_ROUTE, priority: 1 },
                ],
              },
            },
          },
        },
      };
    },
  };
}

/**
 * Dependencies bundled into the production server build instead of being imported from node_modules at start. Node
 * resolves and loads each external module on its own (a package.json lookup, a file read, a compile): the ~1,800
 * modules of these packages cost ~1 s of every restart (ADR 050). Only pure ES-module packages with no files of their
 * own to read at run time are listed; React, React DOM and React Router stay external (server.mjs shares their single
 * copy), as do CommonJS packages, the database drivers and anything loading wasm or worker files.
 */
const SERVER_INLINE = [
  /^kysely/,
  /^drizzle-orm/,
  /^better-auth/,
  /^@better-auth\//,
  /^better-call/,
  /^zod/,
  /^d3-/,
  /^@visx\//,
  /^jose/,
  /^@opentelemetry\/api/,
  /^@orama\//,
  /^@noble\//,
  /^ics/,
  /^@remix-run\//,
];

function serverBundle(): Plugin {
  return {
    name: "server-bundle",
    configEnvironment(name, _config, { command }) {
      if (name !== "ssr" || command !== "build") return;
      return { resolve: { noExternal: SERVER_INLINE } };
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), clientChunks(), serverBundle()],
  resolve: { tsconfigPaths: true },
  server: { port: 3000 },
});
