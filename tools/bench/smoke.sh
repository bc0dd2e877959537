#!/usr/bin/env bash
# Every benchmark once, at tiny sizes: a smoke test that fails when a benchmark breaks. It asserts that each
# benchmark exits 0 and prints the lines of each of its steps; it never judges a figure (tiny inputs on a CI
# machine say nothing about speed; figures of record come from full-size runs on a quiet machine, docs/benchmarks/).
# Needs the packaged services and CLI (./mvnw -B package, or verify) and the reference tools aws, rclone, zstd.
# Usage: tools/bench/smoke.sh   (from anywhere; logs go to tools/bench/target/smoke/)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
logs="$repo/tools/bench/target/smoke"
./mvnw -B -q -Pbench -pl tools/bench -am package -DskipTests
mkdir -p "$logs"
cp="tools/bench/target/classes:$(cat tools/bench/target/classpath.txt)"
failed=0
passed=0

# run NAME MAIN "PROPS" PATTERN... : runs MAIN with PROPS, then requires every PATTERN (grep -E) in its output
run() {
  local name="$1" main="$2" props="$3"
  shift 3
  local log="$logs/$name.log"
  echo "==> bench smoke: $name"
  # shellcheck disable=SC2086
  if ! timeout 900 java -Xmx512m $props -Dstowage.repo="$repo" -cp "$cp" "$main" >"$log" 2>&1; then
    echo "bench smoke: $name FAILED (exit non-zero); last lines of $log:"
    tail -n 25 "$log"
    failed=$((failed + 1))
    return
  fi
  local pattern
  for pattern in "$@"; do
    if ! grep -Eq -- "$pattern" "$log"; then
      echo "bench smoke: $name FAILED: no line matching '$pattern' in $log; last lines:"
      tail -n 25 "$log"
      failed=$((failed + 1))
      return
    fi
  done
  passed=$((passed + 1))
}

run end-to-end io.stowage.bench.e2e.EndToEndBenchmark \
  "-Dstowage.bench.e2e.large-bytes=8388608 -Dstowage.bench.e2e.files=20 -Dstowage.bench.e2e.file-bytes=65536 -Dstowage.bench.e2e.dataset-bytes=33554432 -Dstowage.bench.e2e.shard-bytes=8388608 -Dstowage.bench.e2e.wav-dir=$repo/examples/samples/speech-en-allison -Dstowage.bench.e2e.fetch-bytes=16777216 -Dstowage.bench.e2e.fetch-shards=4 -Dstowage.bench.e2e.release-bytes=16777216 -Dstowage.bench.e2e.release-files=4 -Dstowage.bench.e2e.ingest-events=2000 -Dstowage.bench.e2e.evidence-objects=5000 -Dstowage.bench.e2e.evidence-queries=50" \
  '^\| checkpoint publish 1 x 8 MiB' '^\| checkpoint publish 20 x 64 KiB' '^\| release of the verified' \
  '^\| dataset shard .* -> sealed, verified' '^\| dataset fetch of a 16 MiB revision \([0-9]+ shards\)' \
  '^\| release of a verified 16 MiB step of 4 files' '^\| ingest of a backlog of 2000 object.verified events \| [0-9]+ events/s' \
  '^\| gate evidence query, 5000 objects .* \| p99 [0-9.]+ ms' '^- CLI class archive: /'
run ledger io.stowage.bench.ledger.LedgerBenchmark \
  "-Dstowage.bench.ledger.events=2000 -Dstowage.bench.ledger.objects=5000 -Dstowage.bench.ledger.queries=50 -Dstowage.bench.ledger.heap=256m" \
  '^ingest: 2000 events' '^chain verification: .*"ok":true' '^replay \(2000 events\): .*"identical":true' '^gate evidence .*p99'
run checkpoint-upload io.stowage.bench.CheckpointUploadBenchmark \
  "-Dstowage.bench.upload-bytes=8388608 -Dstowage.bench.upload-runs=1 -Dstowage.bench.aws=/usr/bin/aws" \
  'read back with' '^\| stowage' 'stowage / aws'
run upload-memory io.stowage.bench.UploadMemoryProbe "-Dstowage.bench.upload-bytes=8388608" 'MiB'
run re-read io.stowage.bench.ReReadBenchmark \
  "-Dstowage.bench.big-bytes=8388608 -Dstowage.bench.small-count=4 -Dstowage.bench.small-bytes=1048576 -Dstowage.bench.runs=1 -Dstowage.bench.warmups=0" \
  '^## Results' '^uploaded'
run prefetch io.stowage.bench.PrefetchBenchmark \
  "-Dstowage.bench.shards=2 -Dstowage.bench.shard-bytes=4194304 -Dstowage.bench.runs=1" \
  '^\| stowage dataset fetch' '^\| rclone copy' '^ratio stowage / rclone'
run shards io.stowage.bench.ShardBenchmark \
  "-Dstowage.bench.shards.total-bytes=33554432 -Dstowage.bench.shards.shard-bytes=8388608 -Dstowage.bench.shards.runs=1 -Dstowage.bench.shards.wav-dir=$repo/examples/samples/speech-en-allison" \
  '^round 1: stowage' '^re-read of [0-9]+ shards by ShardReader' '^\| Stowage shard builder'

echo "bench smoke: $passed benchmark(s) ran every step, $failed broke"
[ "$failed" = 0 ]
