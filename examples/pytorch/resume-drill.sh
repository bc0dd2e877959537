#!/usr/bin/env bash
# The resume drill, through a real Stowage (stack + six services, `stowage up`): a preempted run resumes
# from its stored checkpoint and its losses equal those of an uninterrupted run:
#   1. reference: train 150 steps uninterrupted, printing every step's loss;
#   2. a second run is "preempted" after step 100 (checkpoints every 50 steps);
#   3. each step is published with `stowage checkpoint publish` (waits for upload and verification);
#   4. the run's local directory is wiped;
#   5. `stowage checkpoint fetch --latest` follows latest.json (written by the uploader once every
#      file of a step was verified) into a fresh directory;
#   6. training resumes from the fetched step; step 101's loss must equal the reference's.
# Needs Debian's python3-torch (/usr/bin/python3). Exit 0 when the losses are equal, 1 otherwise.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
py="${PYTHON:-/usr/bin/python3}"
work="$(mktemp -d /tmp/stowage-drill.XXXXXX)"
export STOWAGE_HOME="${STOWAGE_HOME:-$work/home}"
run="drill-$(date +%s)"
stowage="$repo/stowage"
"$py" -c 'import torch' || { echo "resume drill: needs torch (Debian python3-torch)"; exit 2; }

echo "==> starting Stowage (STOWAGE_HOME=$STOWAGE_HOME)"
"$stowage" up > "$work/up.log" 2>&1 &
up_pid=$!
trap 'kill -TERM $up_pid 2>/dev/null || true; wait $up_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  grep -q "Stowage is up" "$work/up.log" 2>/dev/null && break
  kill -0 $up_pid 2>/dev/null || { cat "$work/up.log"; exit 1; }
  sleep 1
done
grep -q "Stowage is up" "$work/up.log"

echo "==> 1. reference run, 150 steps, uninterrupted"
"$py" "$repo/examples/pytorch/train.py" --data "$repo/examples/samples/speech-en-allison" --out "$work/reference" \
  --steps 150 --save-every 50 --print-every 1 > "$work/reference.log"

echo "==> 2. the run under test, preempted after step 100"
"$py" "$repo/examples/pytorch/train.py" --data "$repo/examples/samples/speech-en-allison" --out "$work/hot/$run" \
  --steps 150 --save-every 50 --print-every 1 --stop-after 100 > "$work/preempted.log"

echo "==> 3. publish each step (waits until every file is uploaded and verified)"
for step in "$work/hot/$run"/step-*; do
  "$stowage" checkpoint publish "$step" --experiment speech-digits --run "$run"
done

echo "==> 4. wipe the local copy"
rm -rf "$work/hot/$run"

echo "==> 5. fetch --latest (the pointer is written once step 100 is verified)"
for attempt in $(seq 1 60); do
  rm -rf "$work/fetched"
  "$stowage" checkpoint fetch --experiment speech-digits --run "$run" --latest --to "$work/fetched" --json \
    > "$work/fetch.json" 2> "$work/fetch.err" || true
  grep -q '"step":100' "$work/fetch.json" 2>/dev/null && break
  sleep 1
done
cat "$work/fetch.json"; echo
grep -q '"step":100' "$work/fetch.json"

echo "==> 6. resume from the fetched step"
"$py" "$repo/examples/pytorch/train.py" --data "$repo/examples/samples/speech-en-allison" --out "$work/resumed" \
  --steps 150 --save-every 50 --print-every 1 --resume-from "$work/fetched" > "$work/resumed.log"

expected="$(grep -m1 '^step 101: loss' "$work/reference.log")"
actual="$(grep -m1 '^step 101: loss' "$work/resumed.log")"
echo "reference: $expected"
echo "resumed:   $actual"
if [ "$expected" = "$actual" ] && [ -n "$actual" ]; then
  echo "RESUME DRILL PASSED: step 101's loss after publish, wipe, fetch --latest and resume equals the uninterrupted run's"
else
  echo "RESUME DRILL FAILED"; exit 1
fi
