package io.stowage.uploader.messaging;

import io.stowage.events.EventMeta;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.StowageEvent;
import io.stowage.messaging.Outcome;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record whose stored objects' events were already sent as their uploads ended: its outcome publishes only the rest,
 * while every event, sent or not, decides the verdict.
 */
class UploadResultsTest {
    private static final String ASSET = "checkpoint/e/r/000000000001";

    @Test
    void aFailureAmongEventsAlreadySentStillDeadLettersTheRecordAndPublishesOnlyWhatWasNotSent() {
        StowageEvent stored = uploaded("e-1", "a.bin");
        StowageEvent failed = ObjectUploadFailed.of(meta("e-2"), ASSET, "primary", "k/b.bin", "/hot/b.bin",
                "b.bin changed since publish", true);

        Outcome outcome = UploadResults.of(List.of(stored, failed), List.of(failed));

        assertThat(outcome.verdict()).isEqualTo(Outcome.Verdict.PERMANENT);
        assertThat(outcome.reason()).isEqualTo("permanent upload failure (1 of 2 objects): b.bin changed since publish");
        assertThat(outcome.events()).containsExactly(failed);
    }

    @Test
    void everyObjectStoredAndSentLeavesNothingToPublish() {
        StowageEvent a = uploaded("e-1", "a.bin");
        StowageEvent b = uploaded("e-2", "b.bin");

        Outcome outcome = UploadResults.of(List.of(a, b), List.of());

        assertThat(outcome.verdict()).isEqualTo(Outcome.Verdict.DONE);
        assertThat(outcome.events()).isEmpty();
        assertThat(UploadResults.of(List.of(a, b)).events()).as("nothing sent early").containsExactly(a, b);
    }

    @Test
    void aTransientFailureIsTriedAgainWhateverWasSent() {
        StowageEvent stored = uploaded("e-1", "a.bin");
        StowageEvent failed = ObjectUploadFailed.of(meta("e-2"), ASSET, "primary", "k/b.bin", "/hot/b.bin",
                "503 Slow Down", false);

        Outcome outcome = UploadResults.of(List.of(stored, failed), List.of(failed));

        assertThat(outcome.verdict()).isEqualTo(Outcome.Verdict.TRANSIENT);
        assertThat(outcome.events()).containsExactly(failed);
    }

    private static ObjectUploaded uploaded(String id, String name) {
        return ObjectUploaded.of(meta(id), ASSET, "primary", "stowage-primary", "checkpoints/e/r/000000000001/"
                + "0".repeat(64) + "/" + name, ObjectKind.CHECKPOINT_FILE, 3, "0".repeat(64), "etag", "/hot/" + name, false);
    }

    private static EventMeta meta(String id) {
        return new EventMeta(id, 1, Instant.parse("2026-12-03T06:00:00Z"), "cause", null);
    }
}
