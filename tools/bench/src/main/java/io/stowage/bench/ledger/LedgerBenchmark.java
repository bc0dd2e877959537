package io.stowage.bench.ledger;

import io.stowage.bench.MachineInfo;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The ledger benchmark (not a test): starts an {@link EmbeddedStack}, publishes {@code events} synthetic
 * events ({@link SyntheticFlow}), starts the packaged ledger and times how fast it drains that backlog (ingest,
 * events/s, overall and the slowest 10-second window); verifies the hash chain; replays every topic into a fresh
 * schema through {@code POST /api/audit/replay} (must be identical); then tops {@code ledger_object} up to
 * {@code objects} rows with SQL and times {@code queries} gate-evidence requests ({@code GET /api/evidence?path=})
 * for random assets (p50/p99/max). Prints every figure against its goal (ingest at least 5,000 events/s,
 * evidence p99 under 250 ms).
 * <p>
 * System properties: {@code stowage.bench.ledger.events} (default 200000), {@code .objects} (1000000),
 * {@code .queries} (1000), {@code .heap} (ledger -Xmx, 1g), {@code stowage.repo} (checkout; default: found from
 * the working directory).
 */
public final class LedgerBenchmark {
    /**
     * SQL for the number of events the ledger has stored so far (one {@code bigint}): the chain's {@code seq} has no
     * gaps and starts at 1, so its maximum is the row count, read from the {@code seq} index's last entry. A
     * {@code count(*)} reads the whole table; polled every 100 ms it read 24 million rows during one ingest of 200,000
     * events, PostgreSQL CPU that a benchmark then counted as the ledger's.
     */
    public static final String STORED_ROWS = "select coalesce(max(seq), 0) from ledger_event";
    private static final PrintStream OUT = System.out;

    private LedgerBenchmark() {
    }

    /** @throws Exception when the stack, the ledger or any request fails */
    public static void main(String[] args) throws Exception {
        int events = Integer.getInteger("stowage.bench.ledger.events", 200_000);
        int objects = Integer.getInteger("stowage.bench.ledger.objects", 1_000_000);
        int queries = Integer.getInteger("stowage.bench.ledger.queries", 1000);
        String heap = System.getProperty("stowage.bench.ledger.heap", "1g");
        Path repo = repo();
        Path work = Files.createTempDirectory("stowage-ledger-bench");
        OUT.printf("## Machine%n- date: %s%n- %d cores seen by the JVM; load average %s%n- java: %s %s%n- events %d, objects %d,"
                        + " queries %d, ledger heap %s%n", java.time.Instant.now(), Runtime.getRuntime().availableProcessors(),
                MachineInfo.loadAverage(), System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                events, objects, queries, heap);
        try (EmbeddedStack stack = EmbeddedStack.start(work.resolve("stack"))) {
            StackEndpoints ep = stack.endpoints();
            long t = System.nanoTime();
            Map<String, Long> published = SyntheticFlow.publish(ep.kafkaBootstrapServers(), events);
            OUT.printf("published %d events in %.1f s, acknowledged per topic %s%n", events, seconds(t), published);
            try (LedgerProcess ledger = LedgerProcess.start(repo, work, ep, heap);
                 Connection db = DriverManager.getConnection(ep.pgJdbcUrl(), ep.pgUser(), ep.pgPassword())) {
                Cpu cpu = new Cpu(ledger.pid(), CpuTime.postmaster(work.resolve("stack/postgres/data")));
                try {
                    ingest(db, events, cpu);
                } catch (IngestStalled e) {
                    OUT.print(IngestDiagnosis.describe(ep.kafkaBootstrapServers(), db, published.keySet(), work.resolve("ledger.log")));
                    throw e;
                }
                timed("chain verification", cpu, events, () -> get(ledger, "/api/audit/chain", Duration.ofMinutes(30)));
                timed("replay (" + events + " events)", cpu, events,
                        () -> post(ledger, "/api/audit/replay", Duration.ofMinutes(60)));
                int assets = topUp(db, objects);
                evidenceQueries(ledger.url(), ledger.authorization(), assets, queries);
            }
        } finally {
            OUT.println("load average at the end: " + MachineInfo.loadAverage());
            deleteTree(work);
        }
    }

    /** CPU seconds of the ledger JVM and of PostgreSQL (postmaster and backends) since the last {@link #lap()}. */
    private static final class Cpu {
        private final long ledger;
        private final long postmaster;
        private double ledgerAt;
        private double pgAt;

        Cpu(long ledger, long postmaster) {
            this.ledger = ledger;
            this.postmaster = postmaster;
            lap();
        }

        /** @return {ledger, postgres} CPU seconds since the previous lap */
        double[] lap() {
            double l = CpuTime.of(ledger);
            double p = CpuTime.withChildren(postmaster);
            double[] used = {l - ledgerAt, p - pgAt};
            ledgerAt = l;
            pgAt = p;
            return used;
        }

        static String describe(double[] used, long events) {
            return String.format("CPU: ledger JVM %.1f s + PostgreSQL %.1f s = %.0f events per CPU-second", used[0], used[1],
                    events / (used[0] + used[1]));
        }
    }

    /** The ledger stored nothing more for {@link #STALL}, short of every published event. */
    private static final class IngestStalled extends IllegalStateException {
        IngestStalled(String message) {
            super(message);
        }
    }

    /** How long ingest may store nothing before the benchmark stops and says what the ledger lacks. */
    private static final Duration STALL = Duration.ofSeconds(90);

    private static void ingest(Connection db, int events, Cpu cpu) throws Exception {
        long start = System.nanoTime();
        long lastCount = -1;
        long lastChange = start;
        long first = -1;
        long previous = 0;
        long previousAt = start;
        double slowest = Double.MAX_VALUE;
        while (true) {
            long count = count(db, STORED_ROWS);
            long now = System.nanoTime();
            if (count != lastCount) {
                lastCount = count;
                lastChange = now;
            } else if (now - lastChange > STALL.toNanos()) {
                throw new IngestStalled("ingest stalled: the ledger stored nothing for " + STALL.toSeconds() + " s at " + count
                        + " of " + events + " events");
            }
            if (first < 0 && count > 0) {
                cpu.lap();
                first = now;
                previous = count;
                previousAt = now;
            }
            if (count >= events) {
                double total = (now - first) / 1e9;
                OUT.println("ingest " + Cpu.describe(cpu.lap(), events));
                OUT.printf("ingest: %d events in %.1f s after the first row = %.0f events/s (slowest 10 s window %.0f events/s;"
                        + " goal >= 10000)%n", events, total, (events - 1) / total, slowest == Double.MAX_VALUE ? 0 : slowest);
                return;
            }
            if (first > 0 && now - previousAt >= 10_000_000_000L) {
                double rate = (count - previous) / ((now - previousAt) / 1e9);
                OUT.printf("  ingest window: %.0f events/s (%d stored)%n", rate, count);
                slowest = Math.min(slowest, rate);
                previous = count;
                previousAt = now;
            }
            if (now - start > Duration.ofMinutes(60).toNanos()) {
                throw new IllegalStateException("ingest did not finish within an hour: " + count + " stored");
            }
            Thread.sleep(200);
        }
    }

    /**
     * Tops {@code ledger_object} up with SQL to {@code objects} rows: assets {@code dataset/top-N/r1} (local root
     * {@code /data/bench/top-N}) of 100 shard objects each, HEAD-checked OK, the first re-read in full OK; at least
     * one asset, which {@link #evidenceQueries} asks for. Prints the rows before and after and the seconds taken.
     *
     * @param db a connection to the ledger's database (its owner role)
     * @return the number of {@code top-N} assets added (N from 0)
     */
    public static int topUp(Connection db, int objects) throws Exception {
        long have = count(db, "select count(*) from ledger_object");
        int extraAssets = (int) Math.max(1, (objects - have + 99) / 100);
        long t = System.nanoTime();
        try (Statement s = db.createStatement()) {
            s.execute("insert into ledger_asset (asset_id, kind, local_root, sealed, key_checkpoint, revision)"
                    + " select 'dataset/top-' || a || '/r1', 'dataset', '/data/bench/top-' || a, true, false, 'r1'"
                    + " from generate_series(0, " + (extraAssets - 1) + ") a");
            s.execute("insert into ledger_object (store, bucket, object_key, asset_id, kind, bytes, sha256, etag, local_path,"
                    + " uploaded_at, head_result, head_verified_at, full_read_result, full_read_verified_at)"
                    + " select 'primary', 'stowage-primary', 'datasets/top-' || a || '/r1/shards/' || o || '.tar.zst',"
                    + " 'dataset/top-' || a || '/r1', 'SHARD', 4096, repeat('e', 64), 'etag', '/data/bench/top-' || a || '/' || o,"
                    + " now(), 'OK', now(), case when o = 0 then 'OK' end, case when o = 0 then now() end"
                    + " from generate_series(0, " + (extraAssets - 1) + ") a, generate_series(0, 99) o");
            s.execute("analyze");
        }
        long total = count(db, "select count(*) from ledger_object");
        long assets = count(db, "select count(*) from ledger_asset");
        OUT.printf("ledger_object topped up with SQL from %d to %d rows (%d assets) in %.1f s%n", have, total, assets, seconds(t));
        return extraAssets;
    }

    /**
     * Times {@code queries} gate-evidence requests ({@code GET /api/evidence?path=/data/bench/top-N}, N random of
     * {@code topAssets}, seed 7) after up to 100 untimed ones, and prints p50, p99 and max against the goal.
     *
     * @param ledgerUrl     the ledger's base URL, {@code http://127.0.0.1:PORT}
     * @param authorization the {@code Authorization} header value (a reader's bearer token)
     * @return the p99 in milliseconds
     * @throws IllegalStateException when a request is refused or an asset's evidence does not hold its 100 objects
     */
    public static double evidenceQueries(String ledgerUrl, String authorization, int topAssets, int queries) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        Random random = new Random(7);
        for (int i = 0; i < Math.min(100, queries); i++) {
            evidence(http, ledgerUrl, authorization, random, topAssets);
        }
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            long t = System.nanoTime();
            int objects = evidence(http, ledgerUrl, authorization, random, topAssets);
            micros.add((System.nanoTime() - t) / 1000);
            if (objects != 100) {
                throw new IllegalStateException("evidence with " + objects + " objects, expected 100");
            }
        }
        micros.sort(null);
        OUT.printf("gate evidence (GET /api/evidence?path=, one asset of 100 objects, %d queries): p50 %.1f ms,"
                        + " p99 %.1f ms, max %.1f ms (goal p99 < 100 ms at 1,000,000 objects, < 250 ms at 10,000,000)%n", queries, pct(micros, 50) / 1000.0,
                pct(micros, 99) / 1000.0, micros.get(micros.size() - 1) / 1000.0);
        return pct(micros, 99) / 1000.0;
    }

    private static int evidence(HttpClient http, String ledgerUrl, String authorization, Random random, int topAssets)
            throws Exception {
        String path = "/data/bench/top-" + random.nextInt(topAssets);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(ledgerUrl + "/api/evidence?path=" + path))
                        .header("Authorization", authorization).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("evidence answered " + response.statusCode());
        }
        return response.body().split("\"key\":", -1).length - 1;
    }

    private static long pct(List<Long> sorted, int percentile) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }

    private interface Step {
        String run() throws Exception;
    }

    private static void timed(String what, Cpu cpu, long events, Step step) throws Exception {
        cpu.lap();
        long t = System.nanoTime();
        String answer = step.run();
        OUT.printf("%s: %.1f s (%s): %s%n", what, seconds(t), Cpu.describe(cpu.lap(), events),
                answer.length() > 400 ? answer.substring(0, 400) + "…" : answer);
    }

    private static String get(LedgerProcess ledger, String path, Duration timeout) throws Exception {
        return ok(path, HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(ledger.url() + path))
                .header("Authorization", ledger.authorization()).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString()));
    }

    private static String post(LedgerProcess ledger, String path, Duration timeout) throws Exception {
        return ok(path, HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(ledger.url() + path))
                .header("Authorization", ledger.authorization()).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** A step whose request was refused or failed did not run: the benchmark stops instead of printing its time. */
    private static String ok(String path, HttpResponse<String> response) {
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(path + " answered HTTP " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** @return the single {@code long} that {@code sql} (a {@code select count(*) …}) answers */
    public static long count(Connection db, String sql) throws Exception {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static Path repo() {
        String configured = System.getProperty("stowage.repo");
        if (configured != null) {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("services/ledger"))) {
                return dir;
            }
        }
        throw new IllegalStateException("run from inside the checkout or set -Dstowage.repo");
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
