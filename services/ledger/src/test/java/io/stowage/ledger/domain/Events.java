package io.stowage.ledger.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;

import java.time.Instant;
import java.util.UUID;

import static io.stowage.events.fixtures.ObjectVerifiedBuilder.objectVerified;

/** Builders of realistic events for the domain tests. */
final class Events {
    static final String SHA_A = "a".repeat(64);
    static final String SHA_B = "b".repeat(64);
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private Events() {
    }

    static EventMeta meta(Instant time) {
        return new EventMeta(UUID.randomUUID().toString(), 1, time, "dataset/speech/r1", null);
    }

    static ObjectUploaded uploaded(Instant time, String key, long bytes, String sha) {
        return ObjectUploaded.of(meta(time), "dataset/speech/r1", "primary", "stowage-primary", key,
                ObjectKind.SHARD, bytes, sha, "etag-1", "/staging/speech/r1/00000.tar.zst", false);
    }

    static ObjectVerified verified(Instant time, String key, VerifyMethod method, VerifyResult result) {
        return objectVerified().meta(meta(time)).key(key, ObjectKind.SHARD).method(method).result(result)
                .matching(1000, SHA_A).build();
    }
}
