package io.stowage.bench.e2e;

import io.stowage.bench.ExternalCommand;
import io.stowage.bench.MachineInfo;
import io.stowage.bench.ledger.LedgerBenchmark;
import io.stowage.events.CloudEventHeaders;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ledger's rows of {@link EndToEndBenchmark}, against the ledger that {@code stowage up} started, with the other
 * services running beside it (no reference tool: each has an absolute goal):
 * <ul>
 *   <li>{@link #ingest}: a backlog of {@code object.verified} events drained by the ledger, events per second;</li>
 *   <li>{@link #evidence}: the gate's evidence query ({@code GET /api/evidence?path=}) with {@code ledger_object}
 *       topped up to a given number of rows, p99 in milliseconds.</li>
 * </ul>
 */
final class LedgerFlows {
    private static final String SHA = "d".repeat(64);
    /** How long ingest may store nothing before the row fails. */
    private static final Duration STALL = Duration.ofSeconds(90);

    private final Path repo;
    private final StowageUp up;
    private final Path work;

    LedgerFlows(Path repo, StowageUp up, Path work) {
        this.repo = repo;
        this.up = up;
        this.work = work;
    }

    /**
     * One row of the ledger's table: a measured figure against an absolute goal.
     *
     * @param flow   what was measured
     * @param figure the figure with its unit, e.g. {@code 11234 events/s}
     * @param goal   the goal as printed, e.g. {@code >= 10000 events/s}
     * @param met    whether the figure reaches the goal
     * @param load   the 1-minute load average just before
     */
    record Row(String flow, String figure, String goal, boolean met, String load) {
        /** @return one Markdown table row */
        String row() {
            return "| " + flow + " | " + figure + " | " + goal + " " + (met ? "met" : "MISSED") + " | " + load + " |";
        }

        /** @return the Markdown table header that {@link #row()} fits */
        static String header() {
            return "| ledger flow (other services running) | figure | goal | load before |\n|---|---|---|---|";
        }
    }

    /**
     * A backlog as the ledger meets it after an outage: the ledger JVM is paused ({@code SIGSTOP}; {@code stowage up}
     * restarts only a service that exits), {@code events} {@code object.verified} events are published as the
     * verifier publishes them (its Kafka login, read from its process environment, so the broker's ACLs let them
     * through), for {@code events / 2} objects of synthetic assets ({@code dataset/e2e-ingest-N/r1}, 100 objects
     * each): a HEAD result (a new ledger row) then a full-read result (an update of it). The ledger is resumed and
     * timed until {@code ledger_event} holds every one of them: from the first new row to the last (as the library
     * benchmark counts) and from the resume. The uploader, which also reads {@code object.verified}, reads them too.
     *
     * @return the row; goal at least 10,000 events/s
     * @throws IllegalStateException when a send fails after the resends or the ledger stores nothing for 90 s
     */
    Row ingest(int events) throws Exception {
        String load = MachineInfo.loadAverage();
        String flow = "ingest of a backlog of " + events + " object.verified events";
        long ledger = up.servicePid("ledger");
        Map<String, String> verifier = StowageUp.environmentOf(up.servicePid("verifier"));
        try (Connection db = database()) {
            long before = count(db, LedgerBenchmark.STORED_ROWS);
            Map<String, Double> cpuBefore;
            signal("STOP", ledger);
            long resumedAt;
            try {
                long t = System.nanoTime();
                publish(verifier, events);
                System.out.printf(Locale.ROOT, "%s: published in %.1f s with the ledger paused%n", flow, seconds(t));
                cpuBefore = up.cpuByProcess();
            } finally {
                signal("CONT", ledger);
                resumedAt = System.nanoTime();
            }
            long target = before + events;
            long first = -1;
            long lastCount = -1;
            long lastChange = resumedAt;
            while (true) {
                long count = count(db, LedgerBenchmark.STORED_ROWS);
                long now = System.nanoTime();
                if (count != lastCount) {
                    lastCount = count;
                    lastChange = now;
                } else if (now - lastChange > STALL.toNanos()) {
                    throw new IllegalStateException("ingest stalled: the ledger stored nothing for " + STALL.toSeconds()
                            + " s at " + (count - before) + " of " + events + " events");
                }
                if (first < 0 && count > before) {
                    first = now;
                }
                if (count >= target) {
                    double fromFirst = (now - first) / 1e9;
                    double fromResume = (now - resumedAt) / 1e9;
                    double rate = (events - 1) / Math.max(fromFirst, 1e-3);
                    System.out.printf(Locale.ROOT, "%s: %.1f s from the first stored row (%.0f events/s), %.1f s from the"
                                    + " resume (%.0f events/s); CPU s by process: %s%n", flow, fromFirst, rate, fromResume,
                            events / fromResume, StowageUp.cpuDelta(cpuBefore, up.cpuByProcess()));
                    return new Row(flow, String.format(Locale.ROOT, "%.0f events/s (%.1f s; %.1f s from the resume)", rate,
                            fromFirst, fromResume), ">= 10000 events/s", rate >= 10_000, load);
                }
                Thread.sleep(100);
            }
        }
    }

    /**
     * Tops {@code ledger_object} up with SQL to {@code objects} rows ({@link LedgerBenchmark#topUp}), then times
     * {@code queries} evidence requests of the running ledger with a reader's token made by {@code stowage token
     * create}, each for an asset of 100 objects.
     *
     * @return the row; goal p99 under 100 ms up to 1,000,000 objects, under 250 ms above
     */
    Row evidence(int objects, int queries) throws Exception {
        String load = MachineInfo.loadAverage();
        int assets;
        try (Connection db = database()) {
            assets = LedgerBenchmark.topUp(db, objects);
        }
        List<String> command = new ArrayList<>(up.command(repo));
        command.addAll(List.of("token", "create", "--role", "reader", "--name", "e2e-bench-" + System.nanoTime(), "--json"));
        String created = ExternalCommand.run(command, up.cliEnvironment(), EndToEndBenchmark.none(), work);
        Matcher token = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"").matcher(created);
        if (!token.find()) {
            throw new IllegalStateException("stowage token create printed no token: " + created);
        }
        // the services re-read the tokens file within about a second of a change
        Thread.sleep(2000);
        double p99 = LedgerBenchmark.evidenceQueries(up.serviceUrl("ledger"), "Bearer " + token.group(1), assets, queries);
        double goal = objects > 1_000_000 ? 250 : 100;
        return new Row(String.format(Locale.ROOT, "gate evidence query, %d objects in the ledger (%d queries)", objects,
                queries), String.format(Locale.ROOT, "p99 %.1f ms", p99), String.format(Locale.ROOT, "p99 < %.0f ms", goal),
                p99 < goal, load);
    }

    private Connection database() throws Exception {
        List<String> db = up.database();
        return DriverManager.getConnection(db.get(0), db.get(1), db.get(2));
    }

    // every send's outcome is read and a failed record is sent again (the same event, the same id: stored once)
    private void publish(Map<String, String> login, int events) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, login.get("KAFKA_BOOTSTRAP_SERVERS"));
        for (String key : List.of("security.protocol", "sasl.mechanism", "sasl.jaas.config")) {
            String value = login.get("KAFKA_" + key.replace('.', '_').toUpperCase(Locale.ROOT));
            if (value != null) {
                config.put(key, value);
            }
        }
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        String bucket = up.primaryBucket();
        Instant t0 = Instant.now();
        List<ProducerRecord<String, byte[]>> pending = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
            int object = i / 2;
            String asset = "dataset/e2e-ingest-" + (object / 100) + "/r1";
            String key = "datasets/e2e-ingest-" + (object / 100) + "/r1/shards/" + (object % 100) + ".tar.zst";
            ObjectVerified event = ObjectVerified.of(new EventMeta(UUID.randomUUID().toString(), 1, t0.plusMillis(i), asset,
                            null), asset, "primary", bucket, key, ObjectKind.SHARD,
                    i % 2 == 0 ? VerifyMethod.HEAD : VerifyMethod.FULL_READ, VerifyResult.OK, 4096, SHA, 4096, SHA, null);
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(event.topic(), asset, EventCodec.encode(event));
            CloudEventHeaders.of(event, "/stowage/verifier").forEach((k, v) -> record.headers().add(k,
                    v.getBytes(StandardCharsets.UTF_8)));
            pending.add(record);
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config)) {
            for (int round = 0; !pending.isEmpty(); round++) {
                List<Future<RecordMetadata>> sent = new ArrayList<>(pending.size());
                pending.forEach(r -> sent.add(producer.send(r)));
                producer.flush();
                List<ProducerRecord<String, byte[]>> failed = new ArrayList<>();
                Exception last = null;
                for (int i = 0; i < sent.size(); i++) {
                    try {
                        sent.get(i).get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        failed.add(pending.get(i));
                        last = e;
                    }
                }
                if (!failed.isEmpty() && round == 5) {
                    throw new IllegalStateException(failed.size() + " of " + events + " events unacknowledged after 5 resends: "
                            + last.getCause(), last);
                }
                pending = failed;
            }
        }
    }

    private void signal(String signal, long pid) throws Exception {
        ExternalCommand.run(List.of("kill", "-" + signal, String.valueOf(pid)), Map.of(), EndToEndBenchmark.none(), work);
    }

    private static long count(Connection db, String sql) throws Exception {
        return LedgerBenchmark.count(db, sql);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
