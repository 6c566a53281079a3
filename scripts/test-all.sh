#!/usr/bin/env bash
# The whole suite, from a fresh checkout: installs what is missing, then typecheck, lint, unit, build,
# integration (PGlite always; PostgreSQL when one answers), the SIGKILL crash tests (lead capture, Webpay payments) and
# end-to-end in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }

step "Packages"
if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "node_modules is up to date"
fi
bash scripts/ensure-chromium.sh
export PATH="$PWD/node_modules/.bin:$PATH"
echo "node $(node --version)"

step "PostgreSQL"
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  candidate="postgres://postgres@127.0.0.1:5432/postgres"
  if node -e "const c=new (require('pg').Client)({connectionString:process.argv[1],connectionTimeoutMillis:2000});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$candidate" 2>/dev/null; then
    export TEST_DATABASE_URL="$candidate"
  fi
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "integration tests also run on PostgreSQL (${TEST_DATABASE_URL%%@*}@…)"
  projects=(--project integration --project integration-postgres)
else
  echo "PostgreSQL layer SKIPPED: no server answers on 127.0.0.1:5432 and TEST_DATABASE_URL is not set"
  projects=(--project integration)
fi

step "Typecheck"
npm run -s typecheck

step "Lint"
npm run -s lint

step "Unit tests"
vitest run --project unit

step "Build"
react-router build >/dev/null
echo "build/ ready"

step "Integration tests"
vitest run "${projects[@]}"

step "Crash test"
node scripts/crash-test.mjs --count 40

step "Crash test: Webpay payments"
node scripts/crash-test-payments.mjs

step "End-to-end tests (Chromium)"
playwright test

echo
echo "All checks passed in $((SECONDS - started)) s."
