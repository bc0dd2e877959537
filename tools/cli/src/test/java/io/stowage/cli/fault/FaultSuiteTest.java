package io.stowage.cli.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.platform.SupervisedService;
import io.stowage.cli.CliRun;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.Topics;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.stack.StackEndpoints;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.stowage.cli.fault.FaultHarness.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fault-injection suite, against the six packaged services as {@code stowage up} starts and supervises them and
 * the real Kafka, S3Proxy and PostgreSQL (child processes on loopback). Each case shards its own dataset, strikes at a
 * point taken from a service's log (SIGKILL of a service, which supervision restarts; SIGSTOP/SIGCONT of a server) or
 * damages a stored shard before its first re-read, then checks: the asset ends verified and every object GETs and
 * hashes right, no object was uploaded twice, a dry run and a release each get exactly one decision and the release
 * exactly one outcome, the directory stays until the release and the released inventory is what was there, corrupt
 * data is denied with the directory intact, and the ledger's hash chain verifies.
 *
 * <p>Seeded: the seed is printed; {@code -Dstowage.fault.seed=N} gives the same data and strike points again and
 * {@code -Dstowage.fault.case=NAME[,NAME…]} runs only those cases. Tagged {@code fault}, excluded from {@code verify}; run with
 * {@code ./mvnw -B verify -pl tools/cli -am -Dstowage.fault -Dtest=FaultSuiteTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("fault")
class FaultSuiteTest {
    private static final long SEED = Long.getLong("stowage.fault.seed", new SecureRandom().nextLong());
    private static final java.util.Set<String> ONLY_CASES = System.getProperty("stowage.fault.case", "").isBlank() ? null
            : java.util.Set.of(System.getProperty("stowage.fault.case").split(","));
    private static final String ONLY = ONLY_CASES == null ? null : String.join(",", ONLY_CASES);
    private static final Duration WAIT = Duration.ofMinutes(4);
    private static FaultHarness harness;
    private static Invariants invariants;
    private static final ExecutorService STRIKER = Executors.newSingleThreadExecutor();

    @BeforeAll
    static void start() throws Exception {
        System.err.println("fault suite seed " + SEED + " (again: -Dstowage.fault.seed=" + SEED
                + ", one case: -Dstowage.fault.case=NAME)");
        harness = FaultHarness.start();
        invariants = new Invariants(harness);
    }

    @AfterAll
    static void stop() {
        STRIKER.shutdownNow();
        if (harness != null) {
            harness.close();
        }
    }

    /** Something done to the running platform at a point of the case named {@code name}. */
    interface Strike {
        void at(String name) throws Exception;
    }

    // --- SIGKILL of each service, restarted by supervision ---

    @Test
    void uploaderKilledAfterItsFirstUploadOfTheAsset() throws Exception {
        survives("kill-uploader-receiving", 4, 12_000, name -> {
            harness.killAndAwaitRestart(await("uploader", "asset " + Pattern.quote(asset(name)) + ":"));
        }, null);
    }

    @Test
    void uploaderKilledMidMultipart() throws Exception {
        // one member above the uploader's 64 MiB multipart threshold: its shard travels in two parts
        survives("kill-uploader-multipart", 1, 70 << 20, name -> {
            harness.killAndAwaitRestart(await("uploader", "starting multipart upload .*datasets/" + Pattern.quote(name) + "/"));
        }, null);
    }

    @Test
    void verifierKilledAfterAVerdict() throws Exception {
        survives("kill-verifier-verdict", 4, 12_000, name -> {
            harness.killAndAwaitRestart(await("verifier", "asset " + Pattern.quote(asset(name)) + ":"));
        }, null);
    }

    @Test
    void uploaderKilledWhileAKeyCheckpointGoesToBothStores() throws Exception {
        String name = "kill-uploader-checkpoint";
        survivesCheckpoint(name, 4, 12_000, n -> {
            harness.killAndAwaitRestart(await("uploader", "asset " + Pattern.quote(io.stowage.events.AssetIds.checkpoint("fault", n, 100)) + ":"));
        }, null);
    }

    @Test
    void verifierKilledAfterAVerdictOnACheckpointFile() throws Exception {
        survivesCheckpoint("kill-verifier-checkpoint", 4, 12_000, n -> {
            harness.killAndAwaitRestart(await("verifier", "asset " + Pattern.quote(io.stowage.events.AssetIds.checkpoint("fault", n, 100)) + ":"));
        }, null);
    }

    @Test
    void ledgerKilledWhileEvidenceArrives() throws Exception {
        survives("kill-ledger-receiving", 4, 12_000, name -> {
            await("uploader", "asset " + Pattern.quote(asset(name)) + ":");
            harness.killAndAwaitRestart("ledger");
        }, null);
    }

    @Test
    void gatekeeperKilledAfterItSentTheDecision() throws Exception {
        survives("kill-gatekeeper-decided", 3, 12_000, null, name -> {
            // the decision's asset is the release (release/<request id>); the dry run came before the mark
            harness.killAndAwaitRestart(await("gatekeeper", "sending gate\\.passed event \\S+ asset release/"));
        });
    }

    @Test
    void providerAdapterKilledAfterItReportedTheRelease() throws Exception {
        survives("kill-provider-adapter-released", 3, 12_000, null, name -> {
            harness.killAndAwaitRestart(await("provider-adapter", "sent volume\\.released event"));
        });
    }

    @Test
    void providerAdapterKilledMidDelete() throws Exception {
        // after the journal recorded DELETING: before the rename aside, during the delete (each of the 120 files hashed,
        // then unlinked) or after it, as the timing falls; every one must end released, exactly once
        survives("kill-provider-adapter-deleting", 120, 8_000, null, name -> {
            harness.killAndAwaitRestart(await("provider-adapter", "release request \\S+ recorded deleting: renaming \\S+/" + Pattern.quote(name) + " aside"));
        });
    }

    @Test
    void gatekeeperKilledAfterItSentTheDecisionOnACheckpointStep() throws Exception {
        survivesCheckpoint("kill-gatekeeper-checkpoint", 3, 12_000, null, name -> {
            harness.killAndAwaitRestart(await("gatekeeper", "sending gate\\.passed event \\S+ asset release/"));
        });
    }

    @Test
    void providerAdapterKilledMidDeleteOfACheckpointStep() throws Exception {
        // the step directory of a key checkpoint (a copy in each store), 60 files: killed once DELETING is journaled
        survivesCheckpoint("kill-provider-adapter-checkpoint", 60, 8_000, null, name -> {
            harness.killAndAwaitRestart(await("provider-adapter", "release request \\S+ recorded deleting: renaming \\S+/"
                    + Pattern.quote(name + "/step-100") + " aside"));
        });
    }

    @Test
    void providerAdapterKilledWhileRetentionDeletes() throws Exception {
        String name = "kill-provider-adapter-expiring";
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        String experiment = "fault";
        String run = "expiring";
        Path runDir = Files.createDirectories(harness.hot.resolve(name));
        List<Long> steps = List.of(100L, 200L, 300L, 400L);
        for (long step : steps) {
            Path dir = runDir.resolve("step-" + step);
            write(dir, random, 2, 6_000);
            json(cli("checkpoint", "publish", dir.toString(), "--experiment", experiment, "--run", run, "--json"), 0);
        }
        Awaitility.await("every step verified").atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            JsonNode plan = json(cli("retention", "plan", "--experiment", experiment, "--run", run, "--json"), 0);
            List<Boolean> verified = new java.util.ArrayList<>();
            plan.path("steps").forEach(st -> verified.add(st.path("verified").asBoolean()));
            return verified.size() == steps.size() && !verified.contains(false);
        });
        Map<Long, List<ObjectEvidence>> objects = new TreeMap<>();
        for (long step : steps) {
            objects.put(step, invariants.asset(io.stowage.events.AssetIds.checkpoint(experiment, run, step)).orElseThrow()
                    .objects());
            assertThat(objects.get(step)).as("objects of step " + step).hasSize(2);
        }

        // killed once the journal holds the decision and a step is DELETING: before, during or after its deletes
        mark();
        Future<?> strike = STRIKER.submit(() -> strikeAt(n -> {
            harness.killAndAwaitRestart(await("provider-adapter", "retention decision \\S+ recorded step \\d+ deleting"));
        }, name));
        CliRun.Result applied = cli("retention", "apply", "--experiment", experiment, "--run", run, "--keep-last", "1", "--json");
        strike.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (applied.exit() != 0) {
            assertThat(applied.err()).as("what the interrupted apply tells the operator")
                    .contains("did not answer retention apply", "stowage retention plan --experiment " + experiment);
        }

        // recovery at start finishes the journaled entry by itself: each expired step recorded exactly once
        Awaitility.await("steps 100-300 expired").atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() ->
                List.of(100L, 200L, 300L).stream().allMatch(step -> expiredEvents(experiment, run, step) > 0));
        // an operator's second apply after the crash deletes nothing more
        JsonNode again = json(cli("retention", "apply", "--experiment", experiment, "--run", run, "--keep-last", "1", "--json"), 0);
        assertThat(again.path("expired")).as(again.toString()).isEmpty();
        assertThat(again.path("refused")).as(again.toString()).isEmpty();
        Awaitility.await("one checkpoint.expired per step").during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(60))
                .until(() -> List.of(100L, 200L, 300L).stream().allMatch(step -> expiredEvents(experiment, run, step) == 1)
                        && expiredEvents(experiment, run, 400L) == 0);
        try (io.stowage.cli.store.PrimaryStore store = new io.stowage.cli.store.PrimaryStore(harness.platform.session().stack())) {
            for (long step : List.of(100L, 200L, 300L)) {
                for (ObjectEvidence o : objects.get(step)) {
                    assertThat(store.head(o.key())).as("expired " + o.key()).isEmpty();
                }
            }
            for (ObjectEvidence o : objects.get(400L)) {
                byte[] bytes;
                try (java.io.InputStream in = store.open(o.key())) {
                    bytes = in.readAllBytes();
                }
                assertThat(Sha256.of(bytes)).as("kept " + o.key()).isEqualTo(o.sha256());
            }
            assertThat(store.head("checkpoints/" + experiment + "/" + run + "/latest.json")).isPresent();
        }
        JsonNode plan = json(cli("retention", "plan", "--experiment", experiment, "--run", run, "--json"), 0);
        assertThat(plan.path("steps")).hasSize(1);
        assertThat(plan.path("steps").get(0).path("step").asLong()).isEqualTo(400L);
        invariants.chainIntact();
        System.err.printf("fault case %s passed in %.1f s (seed %d, the interrupted apply exited %d)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, applied.exit());
    }

    private static long expiredEvents(String experiment, String run, long step) {
        return invariants.count("select count(*) from ledger_event where topic = '" + Topics.CHECKPOINT_EXPIRED
                + "' and asset_id = ?", io.stowage.events.AssetIds.checkpoint(experiment, run, step));
    }

    // --- SIGSTOP/SIGCONT of the servers (child processes of this JVM; PostgreSQL's postmaster and backends) ---

    @Test
    void s3ServerPausedWhileUploading() throws Exception {
        survives("pause-s3", 4, 12_000, paused("s3"), null);
    }

    @Test
    void brokerPausedWhileUploading() throws Exception {
        survives("pause-kafka", 4, 12_000, paused("kafka"), null);
    }

    @Test
    void postgresPausedWhileEvidenceArrives() throws Exception {
        survives("pause-postgres", 4, 12_000, paused("postgres"), null);
    }

    private static Strike paused(String server) {
        return name -> {
            await("uploader", "asset " + Pattern.quote(asset(name)) + ":");
            long[] pids = harness.serverPids(server);
            FaultHarness.signal("STOP", pids);
            try {
                Thread.sleep(8_000); // the fault itself: the server answers nothing for 8 s
            } finally {
                FaultHarness.signal("CONT", pids);
            }
        };
    }

    // --- SIGKILL of the servers: supervision starts each again on its port and data ---

    @Test
    void brokerKilledWhileUploading() throws Exception {
        survives("kill-kafka", 4, 12_000, killedServer("kafka"), null);
    }

    @Test
    void s3ServerKilledWhileUploading() throws Exception {
        survives("kill-s3", 4, 12_000, killedServer("s3"), null);
    }

    @Test
    void postgresKilledWhileEvidenceArrives() throws Exception {
        survives("kill-postgres", 4, 12_000, killedServer("postgres"), null);
    }

    /**
     * PostgreSQL killed three times in a row while the asset's evidence arrives, each time at a seeded moment up to
     * 1.5 s after supervision started it again: the ledger's store attempts meet refused connects, a server that does
     * not accept yet and connections reset mid-transaction, and must store every event once the server stays up.
     */
    @Test
    void postgresKilledThriceWhileEvidenceArrives() throws Exception {
        Strike once = killedServer("postgres");
        survives("kill-postgres-thrice", 6, 12_000, name -> {
            Random pause = new Random(SEED ^ 31 * name.hashCode());
            for (int i = 0; i < 3; i++) {
                once.at(name);
                Thread.sleep(pause.nextInt(1_500));
            }
        }, null);
    }

    /**
     * SIGKILL of the server's process after the asset's first upload (PostgreSQL: the postmaster alone; its backends
     * notice and leave), then waits until supervision has started it again (one more restart recorded, running); the
     * case's invariants then hold as after a service's kill.
     */
    private static Strike killedServer(String server) {
        String supervised = server.equals("s3") ? "s3proxy" : server;
        return name -> {
            await("uploader", "asset " + Pattern.quote(asset(name)) + ":");
            int before = harness.platform.supervision().service(supervised).orElseThrow().restarts();
            FaultHarness.signal("KILL", harness.serverPids(server)[0]);
            Awaitility.await(supervised + " started again by supervision").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                    .until(() -> harness.platform.supervision().service(supervised)
                            .map(s -> s.restarts() == before + 1 && SupervisedService.RUNNING.equals(s.state()))
                            .orElse(false));
        };
    }

    // --- corruption of a stored shard before its first re-read ---

    @Test
    void aShardWithAFlippedByteIsDenied() throws Exception {
        corrupted("corrupt-flip", Damage.FLIP, "FULL_READ MISMATCH");
    }

    @Test
    void aTruncatedShardIsDenied() throws Exception {
        corrupted("corrupt-truncate", Damage.TRUNCATE, "HEAD MISMATCH");
    }

    @Test
    void aDeletedShardIsDenied() throws Exception {
        corrupted("corrupt-delete", Damage.DELETE, "HEAD MISSING");
    }

    // --- forgery: well-formed evidence and a gate.passed sent by producers that are not the topic's writer ---

    @Test
    void forgedEvidenceAndAForgedApprovalAreRefusedByTheBrokerAndTheDirectoryStays() throws Exception {
        String name = "forged-evidence";
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        Path dir = harness.hot.resolve(name);
        Map<String, byte[]> written = write(dir, random, 2, 6_000);
        String assetId = asset(name);
        java.time.Clock clock = java.time.Clock.systemUTC();
        // topic → record value: valid events in every field, so that only the broker's ACL can refuse them
        List<Map.Entry<String, byte[]>> records = new java.util.ArrayList<>();
        for (Map.Entry<String, byte[]> file : written.entrySet()) {
            String sha = Sha256.of(file.getValue());
            String key = "datasets/" + name + "/r1/shards/" + sha + ".tar.zst";
            records.add(Map.entry(Topics.OBJECT_UPLOADED, EventCodec.encode(io.stowage.events.ObjectUploaded.of(
                    io.stowage.events.EventMeta.first(assetId, clock), assetId, "primary", "stowage-primary", key,
                    io.stowage.events.ObjectKind.SHARD, file.getValue().length, sha, "etag",
                    dir.resolve(file.getKey()).toString(), false))));
            records.add(Map.entry(Topics.OBJECT_VERIFIED, EventCodec.encode(io.stowage.events.ObjectVerified.of(
                    io.stowage.events.EventMeta.first(assetId, clock), assetId, "primary", "stowage-primary", key,
                    io.stowage.events.ObjectKind.SHARD, io.stowage.events.VerifyMethod.FULL_READ,
                    io.stowage.events.VerifyResult.OK, file.getValue().length, sha, file.getValue().length, sha, null))));
        }
        records.add(Map.entry(Topics.GATE_PASSED, ("{\"requestId\":\"forged\",\"path\":\"" + dir + "\",\"dryRun\":false}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        // the CLI's own login (what a user holding the session has), and service logins that write other topics
        List<String> impostors = List.of("operator", "ledger", "provider-adapter");
        for (String impostor : impostors) {
            for (Map.Entry<String, byte[]> r : records) {
                assertRefused(impostor, r.getKey(), Topics.GATE_PASSED.equals(r.getKey()) ? "release/forged" : assetId,
                        r.getValue());
            }
        }
        JsonNode dry = json(cli("release", dir.toString(), "--dry-run", "--json"), CliException.DENIED);
        assertThat(dry.path("gate").asText()).isEqualTo("denied");
        JsonNode denied = json(cli("release", dir.toString(), "--json"), CliException.DENIED);
        assertThat(denied.path("released").asBoolean()).isFalse();
        assertIntact(dir, written);
        assertThat(invariants.asset(assetId)).as("no forged evidence reached the ledger").isEmpty();
        invariants.chainIntact();
        System.err.printf("fault case %s passed in %.1f s (seed %d, %d forged records refused)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, impostors.size() * records.size());
    }

    private static void assertRefused(String principal, String topic, String key, byte[] value) {
        Map<String, Object> config = new java.util.HashMap<>(harness.platform.kafkaClient(principal));
        config.put(org.apache.kafka.clients.producer.ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        config.put(org.apache.kafka.clients.producer.ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        config.put(org.apache.kafka.clients.producer.ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        Throwable refused;
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<>(config,
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            refused = org.assertj.core.api.Assertions.catchThrowable(() -> producer.send(
                    new org.apache.kafka.clients.producer.ProducerRecord<>(topic, key, value)).get());
        }
        Throwable root = refused;
        while (root != null && root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        assertThat(root).as(principal + " writing " + topic).isInstanceOf(
                org.apache.kafka.common.errors.TopicAuthorizationException.class);
    }

    // --- corruption after the first re-read: found by the next full read (scrub, or an operator's re-read) ---

    @Test
    void aShardFlippedAfterItWasVerifiedIsDeniedOnceAFullReadFindsIt() throws Exception {
        damagedAfterVerified("corrupt-after-reread", Damage.FLIP, "MISMATCH");
    }

    @Test
    void aShardTruncatedAfterItWasVerifiedIsDeniedOnceAFullReadFindsIt() throws Exception {
        damagedAfterVerified("corrupt-truncate-after-reread", Damage.TRUNCATE, "MISMATCH");
    }

    @Test
    void aShardDeletedAfterItWasVerifiedIsDeniedOnceAFullReadFindsIt() throws Exception {
        damagedAfterVerified("corrupt-delete-after-reread", Damage.DELETE, "MISSING");
    }

    /**
     * Shards a dataset and waits until it is verified, then damages one shard in the store and has every object re-read
     * in full ({@code stowage audit reread}, as the scrub does over its period): the re-read reports {@code expected}
     * for that shard and exits 1, and the release is denied naming it (the later bad full read outweighs the earlier
     * good one), every file left as it was.
     */
    private void damagedAfterVerified(String name, Damage damage, String expected) throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        Path dir = harness.hot.resolve(name);
        Map<String, byte[]> written = write(dir, random, 3, 12_000);
        int shards = shard(dir, name, 12_000);
        Awaitility.await(asset(name) + " verified").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> invariants.verified(asset(name), 2 * shards + 1));
        List<ObjectEvidence> stored = invariants.asset(asset(name)).orElseThrow().objects().stream()
                .filter(o -> o.kind().name().equals("SHARD")).toList();
        String damaged = stored.get(random.nextInt(stored.size())).key();
        damage("primary", damaged, damage, random);

        // a later bad full read outweighs the earlier good one
        rereadFinds(asset(name), 2 * shards + 1, expected + " primary " + damaged);
        deniedWithEveryFileIntact(dir, written, damaged + " in primary: FULL_READ " + expected);
        System.err.printf("fault case %s passed in %.1f s (seed %d, damaged %s after it was verified)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, damaged);
    }

    @Test
    void aCheckpointFileFlippedAfterItWasVerifiedIsDeniedOnceAFullReadFindsIt() throws Exception {
        checkpointDamagedAfterVerified("corrupt-checkpoint-after-reread", "primary", Damage.FLIP, "MISMATCH");
    }

    @Test
    void aReplicaCopyTruncatedAfterItWasVerifiedIsDeniedOnceAFullReadFindsIt() throws Exception {
        // the primary copies stay good: the later bad read of the second copy alone must deny
        checkpointDamagedAfterVerified("corrupt-replica-truncate-after-reread", "replica", Damage.TRUNCATE, "MISMATCH");
    }

    @Test
    void aReplicaCopyDeletedAfterItWasVerifiedIsDeniedOnceAFullReadFindsIt() throws Exception {
        checkpointDamagedAfterVerified("corrupt-replica-delete-after-reread", "replica", Damage.DELETE, "MISSING");
    }

    /**
     * Publishes a key checkpoint step (a copy in each store) with its provenance and waits until every copy is
     * verified, then damages one file in {@code store} and has every object re-read in full ({@code stowage audit
     * reread}, as the scrub does over its period): the re-read reports {@code expected} for that copy and exits 1, and
     * the release of the step directory is denied naming it, every file left as it was.
     */
    private void checkpointDamagedAfterVerified(String name, String store, Damage damage, String expected)
            throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        VerifiedStep verifiedStep = verifiedKeyStep(name, random);
        Path dir = verifiedStep.dir();
        Map<String, byte[]> written = verifiedStep.written();
        String assetId = verifiedStep.assetId();
        List<ObjectEvidence> stored = invariants.asset(assetId).orElseThrow().objects().stream()
                .filter(o -> o.store().equals(store)).toList();
        String damaged = stored.get(random.nextInt(stored.size())).key();
        damage(store, damaged, damage, random);

        rereadFinds(assetId, 2 * written.size(), expected + " " + store + " " + damaged);
        deniedWithEveryFileIntact(dir, written, damaged + " in " + store + ": FULL_READ " + expected);
        System.err.printf("fault case %s passed in %.1f s (seed %d, damaged %s in %s after it was verified)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, damaged, store);
    }

    // --- damage after verification, released before any re-read: the gate's own HEAD at decision time sees it ---

    @Test
    void aCheckpointFileDeletedFromTheStoreAfterItWasVerifiedIsDeniedWithoutAReread() throws Exception {
        checkpointDamagedThenReleased("gone-before-release", "primary", Damage.DELETE, "store-object-gone");
    }

    @Test
    void aCheckpointFileTruncatedInTheStoreAfterItWasVerifiedIsDeniedWithoutAReread() throws Exception {
        checkpointDamagedThenReleased("truncated-before-release", "primary", Damage.TRUNCATE, "store-object-changed");
    }

    @Test
    void aReplicaCopyDeletedAfterItWasVerifiedIsDeniedWithoutAReread() throws Exception {
        checkpointDamagedThenReleased("replica-gone-before-release", "replica", Damage.DELETE, "no-replica-copy");
    }

    @Test
    void aCheckpointFileFlippedInTheStoreAfterItsFullReadIsDeniedWithoutAReread() throws Exception {
        checkpointDamagedThenReleased("flipped-before-release", "primary", Damage.FLIP, "store-object-changed");
    }

    @Test
    void aReplicaCopyFlippedAfterItsFullReadIsDeniedWithoutAReread() throws Exception {
        checkpointDamagedThenReleased("replica-flipped-before-release", "replica", Damage.FLIP, "no-replica-copy");
    }

    /**
     * Publishes a key checkpoint step, waits until every copy is verified (the ledger's newest HEAD and full read are
     * OK), damages one file in {@code store} and asks for the release at once, with no re-read in between: the gate
     * HEADs every object at decision time and reads again in full those whose full read it counts, so the dry run and
     * the release are denied with {@code code} naming the damaged key, and every local file stays as it was.
     */
    private void checkpointDamagedThenReleased(String name, String store, Damage damage, String code) throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        VerifiedStep verifiedStep = verifiedKeyStep(name, random);
        Path dir = verifiedStep.dir();
        Map<String, byte[]> written = verifiedStep.written();
        String assetId = verifiedStep.assetId();
        // a flip keeps the size and metadata, so only a full read sees it: flip an object whose full read the gate
        // counts for condition 2 (the verifier read it in full), the object the gate must read again
        List<ObjectEvidence> stored = invariants.asset(assetId).orElseThrow().objects().stream()
                .filter(o -> o.store().equals(store) && o.kind().name().equals("CHECKPOINT_FILE"))
                .filter(o -> damage != Damage.FLIP || o.fullReadResult() == io.stowage.events.VerifyResult.OK).toList();
        assertThat(stored).as("checkpoint files in " + store + (damage == Damage.FLIP ? " read in full with OK" : ""))
                .isNotEmpty();
        String damaged = stored.get(random.nextInt(stored.size())).key();
        damage(store, damaged, damage, random);

        deniedWithEveryFileIntact(dir, written, code, damaged);
        System.err.printf("fault case %s passed in %.1f s (seed %d, damaged %s in %s, released with no re-read)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, damaged, store);
    }

    /** A key checkpoint step published and verified in both stores: its directory, its files' bytes, its asset id. */
    private record VerifiedStep(Path dir, Map<String, byte[]> written, String assetId) {
    }

    /**
     * Publishes step 100 of run {@code name} (three files, a capsule with provenance) as a key checkpoint and waits
     * until every copy in both stores is verified.
     */
    private static VerifiedStep verifiedKeyStep(String name, Random random) throws Exception {
        Path runDir = Files.createDirectories(harness.hot.resolve(name));
        Files.writeString(runDir.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\",\"configSha256\":\""
                + "b".repeat(64) + "\",\"dataManifestSha256\":\"" + "c".repeat(64) + "\"}");
        Path dir = runDir.resolve("step-100");
        Map<String, byte[]> written = write(dir, random, 3, 12_000);
        String assetId = io.stowage.events.AssetIds.checkpoint("fault", name, 100);
        json(cli("checkpoint", "publish", dir.toString(), "--experiment", "fault", "--run", name, "--key",
                "--no-wait", "--json"), 0);
        Awaitility.await(assetId + " verified").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> invariants.verified(assetId, 2 * written.size()));
        return new VerifiedStep(dir, written, assetId);
    }

    /**
     * Re-reads every object of {@code assetId} in full ({@code stowage audit reread --json}) and expects exit 1, one
     * result per object ({@code objects}) and among them {@code found} ("RESULT store key").
     */
    private static void rereadFinds(String assetId, int objects, String found) throws Exception {
        CliRun.Result reread = cli("audit", "reread", assetId, "--json");
        assertThat(reread.exit()).as(reread.out() + reread.err()).isEqualTo(CliException.FAILED);
        List<String> results = new java.util.ArrayList<>();
        EventCodec.mapper().readTree(reread.out()).path("results").forEach(r -> results.add(
                r.path("result").asText() + " " + r.path("store").asText() + " " + r.path("key").asText()));
        assertThat(results).contains(found).hasSize(objects);
    }

    // --- corruption of a stored checkpoint file, in the primary and in the replica store ---

    @Test
    void aCheckpointFileWithAFlippedByteIsDenied() throws Exception {
        corruptedCheckpoint("corrupt-checkpoint-flip", "primary", Damage.FLIP, "FULL_READ MISMATCH");
    }

    @Test
    void aKeyCheckpointsReplicaCopyWithAFlippedByteIsDenied() throws Exception {
        // the primary copies are all good: only the second copy, the one kept for when the primary fails, is damaged
        corruptedCheckpoint("corrupt-replica-flip", "replica", Damage.FLIP, "FULL_READ MISMATCH");
    }

    @Test
    void aTruncatedCheckpointFileIsDenied() throws Exception {
        corruptedCheckpoint("corrupt-checkpoint-truncate", "primary", Damage.TRUNCATE, "HEAD MISMATCH");
    }

    @Test
    void aDeletedCheckpointFileIsDenied() throws Exception {
        corruptedCheckpoint("corrupt-checkpoint-delete", "primary", Damage.DELETE, "HEAD MISSING");
    }

    @Test
    void aTruncatedReplicaCopyIsDenied() throws Exception {
        corruptedCheckpoint("corrupt-replica-truncate", "replica", Damage.TRUNCATE, "HEAD MISMATCH");
    }

    @Test
    void aDeletedReplicaCopyIsDenied() throws Exception {
        corruptedCheckpoint("corrupt-replica-delete", "replica", Damage.DELETE, "HEAD MISSING");
    }

    enum Damage { FLIP, TRUNCATE, DELETE }

    /** What a case stores: its directory, the files written there, and the ledger asset they become. */
    private record Subject(Path dir, Map<String, byte[]> written, String assetId) {
    }

    /** Hands a prepared {@link Subject} to the platform; returns how many objects the ledger must hold for it. */
    private interface Send {
        int send() throws Exception;
    }

    /**
     * Shards a fresh dataset of {@code files} files of up to {@code maxBytes} bytes; runs {@code upload} while it is
     * uploaded and verified, {@code release} while it is released; checks every invariant.
     */
    private void survives(String name, int files, int maxBytes, Strike upload, Strike release) throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        Random random = new Random(SEED ^ name.hashCode());
        Path dir = harness.hot.resolve(name);
        Subject subject = new Subject(dir, write(dir, random, files, maxBytes), asset(name));
        survives(name, subject, () -> 2 * shard(dir, name, maxBytes) + 1, upload, release);
    }

    /**
     * Publishes a key checkpoint step ({@code files} files of up to {@code maxBytes} bytes, provenance beside it, a copy
     * in each store) under run {@code name}; runs {@code upload} while it is uploaded and verified, {@code release}
     * while its step directory is released; checks every invariant, in both stores.
     */
    private void survivesCheckpoint(String name, int files, int maxBytes, Strike upload, Strike release) throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        Random random = new Random(SEED ^ name.hashCode());
        Path runDir = Files.createDirectories(harness.hot.resolve(name));
        Files.writeString(runDir.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\",\"configSha256\":\""
                + "b".repeat(64) + "\",\"dataManifestSha256\":\"" + "c".repeat(64) + "\"}");
        Path dir = runDir.resolve("step-100");
        Subject subject = new Subject(dir, write(dir, random, files, maxBytes),
                io.stowage.events.AssetIds.checkpoint("fault", name, 100));
        survives(name, subject, () -> {
            json(cli("checkpoint", "publish", dir.toString(), "--experiment", "fault", "--run", name, "--key",
                    "--no-wait", "--json"), 0);
            return 2 * files;
        }, upload, release);
    }

    private void survives(String name, Subject subject, Send send, Strike upload, Strike release)
            throws Exception {
        long started = System.nanoTime();
        Path dir = subject.dir();
        Map<String, byte[]> written = subject.written();
        mark();
        Future<?> strike = upload == null ? null : STRIKER.submit(() -> strikeAt(upload, name));
        int objects = send.send();
        if (strike != null) {
            strike.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        Awaitility.await(subject.assetId() + " verified").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> invariants.verified(subject.assetId(), objects));
        invariants.everyObjectGetsAndHashesRight(subject.assetId());
        assertIntact(dir, written);

        JsonNode dry = json(cli("release", dir.toString(), "--dry-run", "--json"), 0);
        assertThat(dry.path("gate").asText()).isEqualTo("passed");
        assertThat(invariants.oneDecisionAndOneOutcome(dry.path("requestId").asText(), true)).isEqualTo(Topics.GATE_PASSED);
        assertIntact(dir, written);

        mark();
        strike = release == null ? null : STRIKER.submit(() -> strikeAt(release, name));
        JsonNode released = json(cli("release", dir.toString(), "--json"), 0);
        if (strike != null) {
            strike.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(released.path("released").asBoolean()).as(released.toString()).isTrue();
        assertThat(dir).doesNotExist();
        assertInventoryWasWhatWasThere(released, written);
        String requestId = released.path("requestId").asText();
        // a redelivery after a restart must not add a second decision or outcome: the count holds for a while
        Awaitility.await("one decision and one outcome").during(Duration.ofSeconds(release == null ? 1 : 6))
                .atMost(Duration.ofSeconds(30)).until(() -> Topics.GATE_PASSED.equals(invariants.oneDecisionAndOneOutcome(requestId, false)));
        invariants.oneDecisionRecordOnTheBroker(requestId);
        invariants.everyObjectGetsAndHashesRight(subject.assetId());
        invariants.chainIntact();
        List<String> twice = invariants.noObjectUploadedTwice(subject.assetId());
        System.err.printf("fault case %s passed in %.1f s (seed %d, %d objects, %d object.uploaded events%s)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, objects, invariants.uploadEvents(subject.assetId()),
                twice.isEmpty() ? "" : "; more than one for " + twice);
    }

    private void corrupted(String name, Damage damage, String expected) throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        Path dir = harness.hot.resolve(name);
        Map<String, byte[]> written = write(dir, random, 3, 12_000);
        String[] damaged = new String[1];
        int[] shards = new int[1];
        // every verifier instance is frozen while the shards are uploaded: the damage lands before any re-read
        harness.whilePaused("verifier", () -> {
            try {
                shards[0] = shard(dir, name, 12_000);
                Awaitility.await(asset(name) + " uploaded").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                        .until(() -> invariants.asset(asset(name)).map(a -> a.objects().size() == 2 * shards[0] + 1).orElse(false));
                List<ObjectEvidence> stored = invariants.asset(asset(name)).orElseThrow().objects().stream()
                        .filter(o -> o.kind().name().equals("SHARD")).toList();
                damaged[0] = stored.get(random.nextInt(stored.size())).key();
                damage("primary", damaged[0], damage, random);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        Awaitility.await("the verifier's verdict on " + damaged[0]).atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> invariants.asset(asset(name)).orElseThrow().objects().stream()
                        .filter(o -> o.key().equals(damaged[0])).anyMatch(o -> expected.startsWith("HEAD")
                                ? o.headResult() != null : o.fullReadResult() != null));
        deniedWithEveryFileIntact(dir, written, damaged[0] + " in primary: " + expected);
        System.err.printf("fault case %s passed in %.1f s (seed %d, damaged %s)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, damaged[0]);
    }

    /**
     * Publishes a key checkpoint step (a copy in each store) with its provenance while every verifier instance is frozen
     * (SIGSTOP), damages one of its files in {@code store} before any re-read, and expects both the dry run and the release of the step
     * directory to be denied with {@code bad-evidence} naming that key, store and result, every file left as it was.
     */
    private void corruptedCheckpoint(String name, String store, Damage damage, String expected) throws Exception {
        assumeTrue(ONLY_CASES == null || ONLY_CASES.contains(name), "only case " + ONLY);
        long started = System.nanoTime();
        Random random = new Random(SEED ^ name.hashCode());
        Path runDir = Files.createDirectories(harness.hot.resolve(name));
        // provenance, so that bad evidence is the only reason left to deny
        Files.writeString(runDir.resolve("experiment.json"), "{\"codeCommit\":\"c0ffee\",\"configSha256\":\""
                + "b".repeat(64) + "\",\"dataManifestSha256\":\"" + "c".repeat(64) + "\"}");
        Path dir = runDir.resolve("step-100");
        Map<String, byte[]> written = write(dir, random, 3, 12_000);
        String assetId = io.stowage.events.AssetIds.checkpoint("fault", name, 100);
        String[] damaged = new String[1];
        harness.whilePaused("verifier", () -> {
            try {
                json(cli("checkpoint", "publish", dir.toString(), "--experiment", "fault", "--run", name, "--key",
                        "--no-wait", "--json"), 0);
                Awaitility.await(assetId + " uploaded to both stores").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                        .until(() -> invariants.asset(assetId).map(a -> a.objects().size() == 2 * written.size()).orElse(false));
                List<ObjectEvidence> stored = invariants.asset(assetId).orElseThrow().objects().stream()
                        .filter(o -> o.store().equals(store)).toList();
                damaged[0] = stored.get(random.nextInt(stored.size())).key();
                damage(store, damaged[0], damage, random);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        Awaitility.await("the verifier's verdict on " + damaged[0] + " in " + store).atMost(WAIT)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> invariants.asset(assetId).orElseThrow().objects().stream()
                        .filter(o -> o.key().equals(damaged[0]) && o.store().equals(store))
                        .anyMatch(o -> expected.startsWith("HEAD") ? o.headResult() != null : o.fullReadResult() != null));
        deniedWithEveryFileIntact(dir, written, damaged[0] + " in " + store + ": " + expected);
        System.err.printf("fault case %s passed in %.1f s (seed %d, damaged %s in %s)%n", name,
                (System.nanoTime() - started) / 1e9, SEED, damaged[0], store);
    }

    /**
     * The dry run and the release of {@code dir} are each denied with {@code bad-evidence} naming {@code named}, each
     * with exactly one decision ({@code gate.denied}) and one outcome in the ledger; every file stays as written and
     * the hash chain verifies.
     */
    private static void deniedWithEveryFileIntact(Path dir, Map<String, byte[]> written, String named) throws Exception {
        deniedWithEveryFileIntact(dir, written, "bad-evidence", named);
    }

    /**
     * A dry run and then the real release of {@code dir} are each denied, with exactly one decision and one outcome,
     * both naming failure {@code code} and {@code named}; every file of {@code written} is left as it was and the
     * ledger's chain is intact.
     */
    private static void deniedWithEveryFileIntact(Path dir, Map<String, byte[]> written, String code, String named)
            throws Exception {
        JsonNode dry = json(cli("release", dir.toString(), "--dry-run", "--json"), CliException.DENIED);
        assertThat(dry.path("failed").toString()).as(dry.toString()).contains(code, named);
        assertThat(invariants.oneDecisionAndOneOutcome(dry.path("requestId").asText(), true)).isEqualTo(Topics.GATE_DENIED);
        JsonNode denied = json(cli("release", dir.toString(), "--json"), CliException.DENIED);
        assertThat(denied.path("released").asBoolean()).isFalse();
        assertThat(denied.path("failed").toString()).as(denied.toString()).contains(code, named);
        assertThat(invariants.oneDecisionAndOneOutcome(denied.path("requestId").asText(), false)).isEqualTo(Topics.GATE_DENIED);
        assertIntact(dir, written);
        invariants.chainIntact();
    }

    private Void strikeAt(Strike strike, String name) throws Exception {
        strike.at(name);
        return null;
    }

    /** Where each service's log stood when the current phase began: the strike looks only at newer lines. */
    private static final Map<String, Long> MARKS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Waits for a line of an instance of {@code service} matching {@code regex} written since the phase began.
     *
     * @return the instance that wrote it (the one doing the work, which a strike then kills)
     */
    private static String await(String service, String regex) throws Exception {
        return harness.awaitLine(service, MARKS, Pattern.compile(regex), WAIT);
    }

    private static void mark() throws Exception {
        for (String service : harness.platform.session().services().keySet()) {
            MARKS.put(service, harness.logMark(service));
        }
    }

    private static int shard(Path dir, String name, int maxBytes) throws Exception {
        JsonNode built = json(cli("dataset", "shard", dir.toString(), "--name", name, "--revision", "r1", "--license",
                "CC-BY-4.0", "--shard-bytes", String.valueOf(Math.max(2L * maxBytes, 20_000)), "--allow-small-shards",
                "--no-wait", "--json"), 0);
        return built.path("shards").asInt();
    }

    private static String asset(String name) {
        return "dataset/" + name + "/r1";
    }

    private static JsonNode json(CliRun.Result result, int exit) throws Exception {
        assertThat(result.exit()).as(result.err()).isEqualTo(exit);
        return EventCodec.mapper().readTree(result.out());
    }

    /** @return relative path to bytes of {@code files} seeded files, each 1 to {@code maxBytes} bytes */
    private static Map<String, byte[]> write(Path dir, Random random, int files, int maxBytes) throws Exception {
        Map<String, byte[]> written = new TreeMap<>();
        for (int i = 0; i < files; i++) {
            byte[] bytes = new byte[files == 1 ? maxBytes : 1 + random.nextInt(maxBytes)];
            random.nextBytes(bytes);
            String path = "audio/clip-" + i + ".wav";
            Files.createDirectories(dir.resolve(path).getParent());
            Files.write(dir.resolve(path), bytes);
            written.put(path, bytes);
        }
        return written;
    }

    private static void assertIntact(Path dir, Map<String, byte[]> written) throws Exception {
        for (Map.Entry<String, byte[]> file : written.entrySet()) {
            assertThat(Files.readAllBytes(dir.resolve(file.getKey()))).as(file.getKey()).isEqualTo(file.getValue());
        }
    }

    private static void assertInventoryWasWhatWasThere(JsonNode released, Map<String, byte[]> written) {
        Map<String, String> inventory = new TreeMap<>();
        released.path("files").forEach(f -> {
            assertThat(f.path("bytes").asLong()).isEqualTo(written.get(f.path("path").asText()).length);
            inventory.put(f.path("path").asText(), f.path("sha256").asText());
        });
        Map<String, String> expected = new TreeMap<>();
        written.forEach((path, bytes) -> expected.put(path, Sha256.of(bytes)));
        assertThat(inventory).isEqualTo(expected);
    }

    private static void damage(String store, String key, Damage damage, Random random) {
        StackEndpoints stack = harness.platform.session().stack();
        String bucket = "replica".equals(store) ? stack.replicaBucket() : stack.primaryBucket();
        try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(stack.s3Endpoint()))
                .region(Region.of(stack.s3Region())).forcePathStyle(true).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(stack.s3AccessKey(),
                        stack.s3SecretKey()))).build()) {
            if (damage == Damage.DELETE) {
                s3.deleteObject(b -> b.bucket(bucket).key(key));
                return;
            }
            var head = s3.headObject(b -> b.bucket(bucket).key(key));
            byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
            byte[] bad = damage == Damage.FLIP ? bytes.clone() : Arrays.copyOf(bytes, bytes.length / 2);
            if (damage == Damage.FLIP) {
                bad[random.nextInt(bad.length)] ^= 0x01;
            }
            // the same metadata (its sha256 included): only the bytes tell
            s3.putObject(b -> b.bucket(bucket).key(key).metadata(head.metadata()), RequestBody.fromBytes(bad));
        }
    }
}
