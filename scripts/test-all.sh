#!/usr/bin/env bash
# The whole suite, from a fresh checkout: installs what is missing, then typecheck, lint, unit, build,
# integration (PGlite always; PostgreSQL when one answers), the SIGKILL crash tests (lead capture, Webpay payments) and
# end-to-end in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }

# Runs the given steps at the same time, as "name" "command" pairs (a command may chain several with &&), each with
# its output in a file of its own; then prints each step's output in the order given, with its time, and fails if
# any failed. For steps that share no files, ports or databases (see each call).
parallel() {
  local dir names=() pids=() failed=() i
  dir=$(mktemp -d)
  while [ $# -gt 0 ]; do
    names+=("$1")
    ( s=$SECONDS; set +e; bash -c "set -euo pipefail; $2" >"$dir/${#names[@]}.log" 2>&1; rc=$?
      echo $((SECONDS - s)) >"$dir/${#names[@]}.time"; exit $rc ) &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then failed+=("${names[$i]}"); fi
  done
  for i in "${!names[@]}"; do
    step "${names[$i]} ($(cat "$dir/$((i + 1)).time") s)"
    cat "$dir/$((i + 1)).log"
  done
  rm -rf "$dir"
  if [ ${#failed[@]} -gt 0 ]; then
    printf '\n\033[1;31mFAILED: %s\033[0m\n' "${failed[*]}"
    return 1
  fi
}

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

# Typecheck, lint, unit tests and the build read the sources and write nothing another of them reads (typegen writes
# .react-router/, which lint ignores and the build does not touch; the build writes build/, which the unit tests do
# not read): they run side by side, the build after the typecheck.
parallel \
  "Typecheck, then build" 'npm run -s typecheck && react-router build >/dev/null && echo "build/ ready"' \
  "Lint" 'npm run -s lint' \
  "Unit tests" 'vitest run --project unit'

step "Integration tests"
s=$SECONDS
vitest run "${projects[@]}"
echo "integration: $((SECONDS - s)) s"

# The two crash tests each spawn their own server on a free port and a temporary DATA_DIR of their own, and spend most
# of their time waiting for it (boots, kills, the payment deadlines): they run side by side.
parallel \
  "Crash test" 'node scripts/crash-test.mjs --count 40' \
  "Crash test: Webpay payments" 'node scripts/crash-test-payments.mjs'

step "End-to-end tests (Chromium)"
s=$SECONDS
playwright test
echo "end-to-end: $((SECONDS - s)) s"

# At night and on weekends the two tests that need the clinic's day skip above (the demo reminder waits out quiet
# hours; no free time lies 1–23 hours ahead): they run again here on the next clinic morning, the runner's and the
# servers' clocks shifted there (scripts/clinic-morning.mjs, docs/testing.md "The clinic's clock").
morning=$(node scripts/clinic-morning.mjs)
if [ -n "$morning" ]; then
  step "End-to-end tests on the next clinic morning ($morning)"
  s=$SECONDS
  CLOCK_AT="$morning" NODE_OPTIONS="--import ./tests/setup/shift-clock.mjs" playwright test \
    tests/e2e/reminders.e2e.ts tests/e2e/payments.e2e.ts \
    --grep "the demo reminder reaches the provider|cancelling less than 24 hours ahead" \
    --output test-results/clinic-morning
  echo "end-to-end on the clinic morning: $((SECONDS - s)) s"
fi

echo
echo "All checks passed in $((SECONDS - started)) s."
