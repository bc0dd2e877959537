package io.stowage.verifier;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Sha256;
import io.stowage.events.Topics;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ScrubCandidate;
import io.stowage.events.ledger.ScrubCoverage;
import io.stowage.stack.StowageStackResource;
import io.stowage.verifier.messaging.ScrubTicker;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The rolling scrub against the real Kafka broker, S3Proxy, PostgreSQL and the packaged ledger service: four 1 MiB
 * objects uploaded (events dated in 2020, a clock the test controls, so that objects of other tests, uploaded now, are
 * not yet there at the scrub's instants), a budget of 2 MiB per hour and a period of 4 hours. Runs at +1 h, +2 h and +3 h
 * re-read them least recently re-read first, two per hour; the object corrupted before the second run is a MISMATCH;
 * the ledger's coverage agrees at each step.
 */
@QuarkusTest
@TestProfile(ScrubProfile.class)
@QuarkusTestResource(StowageStackResource.class)
class ScrubIntegrationTest {
    private static final Instant T0 = Instant.parse("2020-01-01T00:00:00Z");
    private static final int SIZE = 1 << 20;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;
    @ConfigProperty(name = "stowage.store.primary.endpoint")
    URI endpoint;
    @ConfigProperty(name = "stowage.store.primary.access-key-id")
    String accessKey;
    @ConfigProperty(name = "stowage.store.primary.secret-access-key")
    String secretKey;
    @ConfigProperty(name = "stowage.verifier.scrub.ledger-url")
    String ledgerUrl;
    @Inject
    ScrubTicker scrub;

    private final HttpClient http = HttpClient.newHttpClient();
    private final String run = "s" + UUID.randomUUID().toString().substring(0, 8);
    private StoreAndTopics stack;

    @BeforeEach
    void open() {
        stack = new StoreAndTopics(bootstrap, endpoint, accessKey, secretKey);
    }

    @AfterEach
    void close() {
        stack.close();
    }

    @Test
    void reReadsLeastRecentlyReadObjectsWithinTheBudgetCatchesCorruptionAndTheLedgerCountsCoverage() throws Exception {
        List<byte[]> contents = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            byte[] content = new byte[SIZE];
            new Random(i + 31L).nextBytes(content);
            String sha = Sha256.of(content);
            String key = "scrub-it/" + run + "/" + (char) ('a' + i) + "-" + sha.substring(0, 8) + ".bin";
            stack.put(key, content, sha);
            contents.add(content);
            keys.add(key);
            ObjectUploaded uploaded = ObjectUploaded.of(EventMeta.first("scrub-it-" + run,
                            Clock.fixed(T0.plus(Duration.ofMinutes(i)), ZoneOffset.UTC)), "model/" + run, "primary",
                    StoreAndTopics.BUCKET, key, ObjectKind.MODEL_FILE, SIZE, sha, "etag", "/models/" + key, false);
            stack.kafka.send(Topics.OBJECT_UPLOADED, uploaded.assetId(), EventCodec.encode(uploaded));
        }
        awaitDue(T0.plus(Duration.ofHours(1)), due -> due.size() == 4);

        List<ObjectVerified> first = scrub.runAt(T0.plus(Duration.ofHours(1)));
        assertThat(first).extracting(ObjectVerified::key, ObjectVerified::method, ObjectVerified::result,
                        ObjectVerified::actualBytes, ObjectVerified::actualSha256)
                .containsExactly(tuple(keys.get(0), VerifyMethod.FULL_READ, VerifyResult.OK, (long) SIZE, Sha256.of(contents.get(0))),
                        tuple(keys.get(1), VerifyMethod.FULL_READ, VerifyResult.OK, (long) SIZE, Sha256.of(contents.get(1))));
        assertThat(first.get(0).detail()).isEqualTo("scrub: never re-read (uploaded 2020-01-01T00:00:00Z)");
        assertThat(first.get(0).meta().time()).isEqualTo(T0.plus(Duration.ofHours(1)));

        ScrubCoverage afterFirst = awaitCoverage(T0.plus(Duration.ofHours(1)), c -> c.fullReadsInPeriod() == 2 && c.objectsNeverReRead() == 2);
        assertThat(afterFirst).extracting(ScrubCoverage::objects, ScrubCoverage::bytes, ScrubCoverage::objectsNeverReRead,
                        ScrubCoverage::objectsReReadInPeriod, ScrubCoverage::scrubReadsInPeriod,
                        ScrubCoverage::bytesReReadInPeriod, ScrubCoverage::objectsOverdue, ScrubCoverage::oldestUncheckedKey,
                        ScrubCoverage::oldestUncheckedSince, ScrubCoverage::oldestUncheckedNeverReRead,
                        ScrubCoverage::oldestUncheckedAgeSeconds)
                .containsExactly(4L, 4L * SIZE, 2L, 2L, 2L, 2L * SIZE, 0L, keys.get(2), T0.plus(Duration.ofMinutes(2)),
                        true, Duration.ofMinutes(58).toSeconds());

        byte[] flipped = contents.get(2).clone();
        flipped[123_456] ^= 0x40;
        stack.put(keys.get(2), flipped, Sha256.of(contents.get(2)));

        List<ObjectVerified> second = scrub.runAt(T0.plus(Duration.ofHours(2)));
        assertThat(second).extracting(ObjectVerified::key, ObjectVerified::result, ObjectVerified::expectedBytes,
                        ObjectVerified::expectedSha256, ObjectVerified::actualBytes, ObjectVerified::actualSha256)
                .containsExactly(tuple(keys.get(2), VerifyResult.MISMATCH, (long) SIZE, Sha256.of(contents.get(2)),
                                (long) SIZE, Sha256.of(flipped)),
                        tuple(keys.get(3), VerifyResult.OK, (long) SIZE, Sha256.of(contents.get(3)), (long) SIZE,
                                Sha256.of(contents.get(3))));
        assertThat(second.get(0).detail()).isEqualTo("recomputed sha256 " + Sha256.of(flipped) + ", expected "
                + Sha256.of(contents.get(2)) + "; scrub: never re-read (uploaded 2020-01-01T00:02:00Z)");
        awaitCoverage(T0.plus(Duration.ofHours(2)), c -> c.objectsNeverReRead() == 0 && c.fullReadsInPeriod() == 4);

        List<ObjectVerified> third = scrub.runAt(T0.plus(Duration.ofHours(3)));
        assertThat(third).extracting(ObjectVerified::key).containsExactly(keys.get(0), keys.get(1));
        assertThat(third.get(0).detail()).isEqualTo("scrub: least recently re-read (last 2020-01-01T01:00:00Z, OK)");
        assertThat(scrub.runAt(T0.plus(Duration.ofHours(3)))).as("the hour's budget is spent").isEmpty();

        ScrubCoverage afterThird = awaitCoverage(T0.plus(Duration.ofHours(3)), c -> c.fullReadsInPeriod() == 6);
        assertThat(afterThird).extracting(ScrubCoverage::objects, ScrubCoverage::objectsNeverReRead,
                        ScrubCoverage::objectsReReadInPeriod, ScrubCoverage::scrubReadsInPeriod,
                        ScrubCoverage::bytesReReadInPeriod, ScrubCoverage::objectsOverdue, ScrubCoverage::oldestUncheckedKey,
                        ScrubCoverage::oldestUncheckedNeverReRead, ScrubCoverage::oldestUncheckedAgeSeconds)
                .containsExactly(4L, 0L, 4L, 6L, 6L * SIZE, 0L, keys.get(2), false, 3600L);
        assertThat(awaitDue(T0.plus(Duration.ofHours(3)), due -> due.size() == 4))
                .extracting(ScrubCandidate::key, ScrubCandidate::lastFullReadResult)
                .containsExactly(tuple(keys.get(2), VerifyResult.MISMATCH), tuple(keys.get(3), VerifyResult.OK),
                        tuple(keys.get(0), VerifyResult.OK), tuple(keys.get(1), VerifyResult.OK));

        // 3.5 hours after the last reads: c and d (read at +2 h) are past the 4-hour period, a and b (+3 h) are not
        ScrubCoverage later = coverage(T0.plus(Duration.ofMinutes(390)));
        assertThat(later).extracting(ScrubCoverage::fullReadsInPeriod, ScrubCoverage::objectsReReadInPeriod,
                        ScrubCoverage::objectsOverdue, ScrubCoverage::oldestUncheckedKey, ScrubCoverage::oldestUncheckedAgeSeconds)
                .containsExactly(2L, 2L, 2L, keys.get(2), Duration.ofMinutes(270).toSeconds());
    }

    private List<ScrubCandidate> awaitDue(Instant at, Predicate<List<ScrubCandidate>> ready) {
        return Awaitility.await("ledger knows the objects").atMost(Duration.ofSeconds(60))
                .until(() -> due(at).stream().filter(c -> c.key().startsWith("scrub-it/" + run + "/")).toList(), ready);
    }

    private ScrubCoverage awaitCoverage(Instant at, Predicate<ScrubCoverage> ready) {
        return Awaitility.await("ledger stored the scrub results").atMost(Duration.ofSeconds(60))
                .until(() -> coverage(at), ready);
    }

    private List<ScrubCandidate> due(Instant at) throws Exception {
        return EventCodec.mapper().readValue(get("/api/coverage/due?store=primary&limit=1000&at=" + at),
                new com.fasterxml.jackson.core.type.TypeReference<List<ScrubCandidate>>() {
                });
    }

    private ScrubCoverage coverage(Instant at) throws Exception {
        return EventCodec.mapper().readValue(get("/api/coverage?store=primary&period=PT4H&at=" + at), ScrubCoverage.class);
    }

    private byte[] get(String path) throws Exception {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create(ledgerUrl + path))
                        .header("Authorization", io.stowage.auth.TestTokens.bearer(io.stowage.auth.TestTokens.READER)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
        return response.body();
    }
}
