#!/usr/bin/env bash
# A CI job: the sandbox, the app, `pay webhooks listen` and a flow. The job's exit code
# is listen's: 0 when the app took every event (2xx), 1 when it refused or kept failing one.
set -euo pipefail
export PAY_CONFIG_DIR="$(mktemp -d)"   # the job's own sandbox profile and listen state
logs="$PAY_CONFIG_DIR"

# 1. The sandbox, in the background, on a free port, its clock fixed.
npx pay sandbox start --detach --port 0 --memory --clock 2030-01-01
trap 'cat "$logs/listen.log"; kill "${app_pid:-}" 2>/dev/null; npx pay sandbox stop; rm -rf "$PAY_CONFIG_DIR"' EXIT

# 2. The app, with the secret listen signs with (here a tiny receiver, app.mjs).
export WEBHOOK_SECRET="$(npx pay webhooks rotate-secret)"
node "$(dirname "$0")/app.mjs" > "$logs/app.port" &
app_pid=$!
until [ -s "$logs/app.port" ]; do kill -0 "$app_pid"; sleep 0.1; done

# 3. listen, in the background: done after the flow's 3 events, or 30 s without one.
npx pay webhooks listen --forward-to "http://127.0.0.1:$(cat "$logs/app.port")/webhooks" \
  --max-events 3 --exit-after-idle 30s --fail-on-error > "$logs/listen.log" 2>&1 &
listen_pid=$!
until grep -qs 'Ready!' "$logs/listen.log"; do kill -0 "$listen_pid" || wait "$listen_pid"; sleep 0.1; done

# 4. The flows: built-in ones, or your own (pay trigger --file flow.json).
npx pay trigger payment_intent.succeeded

# 5. listen's exit code is the job's.
wait "$listen_pid"
