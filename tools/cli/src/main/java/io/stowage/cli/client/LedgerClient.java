package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.cli.platform.ServiceLauncher;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.LedgerStatus;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.ReleaseOutcome;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * Reads the ledger's HTTP query API (docs/design/contract.md): asset evidence, release outcomes and
 * status. The CLI waits on the ledger, not on Kafka, so what it reports is what the gate will see.
 */
public final class LedgerClient {
    /** Pause between two looks at a release request's outcome, in milliseconds (one small GET of the ledger). */
    static final long RELEASE_POLL_MILLIS = 100;
    /** Polls of a release between two looks at its dead letters (each poll waits 100 ms, so about every 2 s). */
    private static final int DEAD_LETTER_EVERY = 20;
    /**
     * Shortest and longest pause between two looks at an asset's evidence, in milliseconds: each look is the asset's
     * whole evidence (every object with its results), which the ledger queries and the CLI parses, so it is not
     * asked for as often as a release's outcome.
     */
    static final long POLL_MIN_MILLIS = 300;
    static final long POLL_MAX_MILLIS = 2000;
    /** Time between two looks at an asset's dead letters while waiting for its verification. */
    private static final Duration DEAD_LETTER_PAUSE = Duration.ofSeconds(3);
    private final URI base;
    private final HttpJson http = new HttpJson();

    public LedgerClient(URI base) {
        this.base = base;
    }

    /** @return the asset's evidence, empty when the ledger has not seen it */
    public Optional<AssetEvidence> asset(String assetId) {
        return http.get(base.resolve("/api/assets?id=" + encode(assetId)), AssetEvidence.class);
    }

    /**
     * @return every checkpoint step of the run the ledger knows ({@code GET /api/checkpoints/steps}), ascending
     * @throws CliException (exit 1) when the ledger does not answer it
     */
    public io.stowage.events.ledger.RunCheckpoints checkpoints(String experiment, String run) {
        return http.get(base.resolve("/api/checkpoints/steps?experiment=" + encode(experiment) + "&run=" + encode(run)),
                        io.stowage.events.ledger.RunCheckpoints.class)
                .orElseThrow(() -> new CliException(CliException.FAILED, "the ledger has no /api/checkpoints/steps"));
    }

    /**
     * Waits until the ledger stored the event {@code eventId} ({@code GET /api/events/{id}} answers 200).
     *
     * @throws CliException (exit 1) after {@code timeout}
     */
    public void awaitEvent(String eventId, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (http.get(base.resolve("/api/events/" + encode(eventId)), com.fasterxml.jackson.databind.JsonNode.class).isPresent()) {
                return;
            }
            ServiceLauncher.pause(200);
        }
        throw new CliException(CliException.FAILED, "timed out after " + timeout.toSeconds() + " s waiting for the ledger to record event " + eventId);
    }

    /** @return the outcome of a release request, empty when the ledger has not seen it */
    public Optional<ReleaseOutcome> release(String requestId) {
        return http.get(base.resolve("/api/releases/" + encode(requestId)), ReleaseOutcome.class);
    }

    /** @return table counts */
    public LedgerStatus status() {
        return http.get(base.resolve("/api/status"), LedgerStatus.class)
                .orElseThrow(() -> new CliException(CliException.FAILED, "the ledger has no /api/status"));
    }

    /**
     * Waits until the asset has {@code expectedObjects} objects, each with a HEAD result and a
     * full re-read result, and returns the evidence.
     *
     * @throws CliException at the first upload failure (its reason), a non-OK verification, or after {@code timeout}
     */
    public AssetEvidence awaitVerified(String assetId, int expectedObjects, Duration timeout) {
        return awaitVerified(assetId, expectedObjects, timeout, deadLetterIds(assetId));
    }

    /**
     * Like {@link #awaitVerified(String, int, Duration)}, and fails as soon as the ledger holds a dead letter for the
     * asset that is not in {@code deadLettersBefore} (a service refused one of its events, so it will never be
     * verified): take {@code deadLettersBefore} with {@link #deadLetterIds} before publishing.
     *
     * @throws CliException at the first upload failure, a non-OK verification, a new dead letter (its topic and
     *                      reason), or after {@code timeout}
     */
    public AssetEvidence awaitVerified(String assetId, int expectedObjects, Duration timeout,
                                       Set<String> deadLettersBefore) {
        return awaitAsset(assetId, expectedObjects, timeout, deadLettersBefore, asset -> {
            for (ObjectEvidence object : asset.objects()) {
                failIfBad(object, object.headResult());
                failIfBad(object, object.fullReadResult());
            }
            long done = asset.objects().stream().filter(o -> o.headResult() != null && o.fullReadResult() != null).count();
            return asset.objects().size() >= expectedObjects && done == asset.objects().size() ? -1 : done;
        });
    }

    /**
     * Each look at an asset's evidence makes the ledger load and send every object of the asset with its newest results
     * (a step of 1,000 files is about 1,000 rows and half a MiB of JSON), so the pause between looks grows with what is
     * still to come: 2 ms per object not yet verified, within {@value #POLL_MIN_MILLIS}–{@value #POLL_MAX_MILLIS} ms.
     * Near the end, when few objects are left, the pause is the shortest again, so the wait ends soon after the last
     * result is recorded.
     *
     * @param expectedObjects the objects the asset will have
     * @param done            the objects with both results recorded at the last look
     * @return the pause before the next look, in milliseconds
     */
    static long pollPause(int expectedObjects, long done) {
        long left = Math.max(0, expectedObjects - done);
        return Math.max(POLL_MIN_MILLIS, Math.min(POLL_MAX_MILLIS, 2 * left));
    }

    /**
     * Waits until the gate decided a release request and, when it passed and was not a dry run,
     * until the provider-adapter released or refused it.
     *
     * @throws CliException when a service dead-lettered an event of the request (the request can never be decided or
     *                      carried out: the error names the topic and reason), or after {@code timeout}
     */
    public ReleaseOutcome awaitRelease(String requestId, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        for (int poll = 0; Instant.now().isBefore(deadline); poll++) {
            if (poll % DEAD_LETTER_EVERY == DEAD_LETTER_EVERY - 1) {
                failOnNewDeadLetter(AssetIds.release(requestId), Set.of());
            }
            Optional<ReleaseOutcome> outcome = release(requestId);
            if (outcome.isPresent() && !"pending".equals(outcome.get().gate())) {
                ReleaseOutcome o = outcome.get();
                boolean finished = "denied".equals(o.gate()) || o.dryRun() || o.released() || o.failureReason() != null;
                if (finished) {
                    return o;
                }
            }
            ServiceLauncher.pause(RELEASE_POLL_MILLIS);
        }
        throw new CliException(CliException.FAILED, "timed out after " + timeout.toSeconds()
                + " s waiting for the gate to decide release request " + requestId);
    }

    /**
     * Like {@link #awaitVerified(String, int, Duration, Set)}, for an asset whose objects this command knows by key: it
     * is done only when every one of {@code expectedObjects} has a HEAD and a full re-read result in the ledger, so
     * objects the asset already held from an earlier publish of the same name (a step published again with other
     * content) are never taken for this publish's. Only the expected objects' results can fail it.
     *
     * @param expectedObjects {@code store + ":" + key} of every object this publish stores (see {@link #storeKey})
     * @throws CliException at the first upload failure, a non-OK verification of an expected object, a new dead letter,
     *                      or after {@code timeout}
     */
    public AssetEvidence awaitVerified(String assetId, Set<String> expectedObjects, Duration timeout,
                                       Set<String> deadLettersBefore) {
        return awaitAsset(assetId, expectedObjects.size(), timeout, deadLettersBefore, asset -> {
            long done = verifiedOf(asset, expectedObjects);
            return done == expectedObjects.size() ? -1 : done;
        });
    }

    /**
     * Looks at the asset's evidence until it is sealed and {@code progress} says it is complete; fails at the first
     * upload failure, a new dead letter, or after {@code timeout}.
     *
     * @param progress the objects done so far, or -1 when complete; may throw {@link CliException} for a bad result
     */
    private AssetEvidence awaitAsset(String assetId, int expectedObjects, Duration timeout,
                                     Set<String> deadLettersBefore, ToLongFunction<AssetEvidence> progress) {
        Instant deadline = Instant.now().plus(timeout);
        String waitingFor = "the ledger to record " + assetId;
        Instant deadLettersNext = Instant.now().plus(DEAD_LETTER_PAUSE);
        long pause = POLL_MIN_MILLIS;
        while (Instant.now().isBefore(deadline)) {
            if (!Instant.now().isBefore(deadLettersNext)) {
                failOnNewDeadLetter(assetId, deadLettersBefore);
                deadLettersNext = Instant.now().plus(DEAD_LETTER_PAUSE);
            }
            Optional<AssetEvidence> found = asset(assetId);
            if (found.isPresent()) {
                AssetEvidence asset = found.get();
                if (!asset.uploadFailures().isEmpty()) {
                    throw new CliException(CliException.FAILED, "upload of " + assetId + " failed: " + asset.uploadFailures().get(0));
                }
                long done = progress.applyAsLong(asset);
                if (asset.sealed() && done < 0) {
                    return asset;
                }
                long counted = done < 0 ? expectedObjects : done;
                waitingFor = assetId + ": " + counted + " of " + expectedObjects + " objects uploaded and verified";
                pause = pollPause(expectedObjects, counted);
            }
            ServiceLauncher.pause(pause);
        }
        throw new CliException(CliException.FAILED, "timed out after " + timeout.toSeconds() + " s waiting for " + waitingFor);
    }

    /** @return {@code store + ":" + key}, the name of one object in {@link #awaitVerified(String, Set, Duration, Set)} */
    public static String storeKey(String store, String key) {
        return store + ":" + key;
    }

    /**
     * @return how many of {@code expectedObjects} have both a HEAD and a full re-read result in {@code asset}; other
     *         objects of the asset are not counted
     * @throws CliException when an expected object has a result other than OK
     */
    static long verifiedOf(AssetEvidence asset, Set<String> expectedObjects) {
        long done = 0;
        for (ObjectEvidence object : asset.objects()) {
            if (!expectedObjects.contains(storeKey(object.store(), object.key()))) {
                continue;
            }
            failIfBad(object, object.headResult());
            failIfBad(object, object.fullReadResult());
            if (object.headResult() != null && object.fullReadResult() != null) {
                done++;
            }
        }
        return done;
    }

    /**
     * @return the ids of the dead letters the ledger holds for the asset ({@code dlq:<event id>}), from
     *         {@code GET /api/events?assetId=}; empty when it holds none
     */
    public Set<String> deadLetterIds(String assetId) {
        return deadLetters(assetId).stream().map(EventSummary::eventId).collect(Collectors.toUnmodifiableSet());
    }

    private List<EventSummary> deadLetters(String assetId) {
        var type = EventCodec.mapper().getTypeFactory().constructCollectionType(List.class, EventSummary.class);
        Optional<List<EventSummary>> events = http.get(base.resolve("/api/events?assetId=" + encode(assetId)), type);
        return events.orElse(List.of()).stream().filter(EventSummary::deadLetter).toList();
    }

    private void failOnNewDeadLetter(String assetId, Set<String> before) {
        for (EventSummary dead : deadLetters(assetId)) {
            if (!before.contains(dead.eventId())) {
                throw new CliException(CliException.FAILED, "a service refused an event of " + assetId + " ("
                        + dead.type() + " on " + dead.topic() + "): " + (dead.reason() == null ? "no reason given" : dead.reason())
                        + "; it will not be carried out (ledger dead letter " + dead.eventId() + ")");
            }
        }
    }

    /** One row of the ledger's {@code GET /api/events?assetId=} answer. */
    record EventSummary(String eventId, String topic, String type, Instant time, boolean deadLetter, String reason) {
    }

    private static void failIfBad(ObjectEvidence object, VerifyResult result) {
        if (result != null && result != VerifyResult.OK) {
            throw new CliException(CliException.FAILED, "verification of " + object.store() + ":" + object.key()
                    + " gave " + result);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
