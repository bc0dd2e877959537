package io.stowage.uploader.domain;

import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploadFailed;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ShardBuilt;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static io.stowage.uploader.domain.UploadPlannerTest.A;
import static io.stowage.uploader.domain.UploadPlannerTest.B;
import static io.stowage.uploader.domain.UploadPlannerTest.META;
import static org.assertj.core.api.Assertions.assertThat;

class UploadEventsTest {
    final Clock clock = Clock.fixed(Instant.parse("2026-11-30T01:02:03Z"), ZoneOffset.UTC);
    final ShardBuilt cause = ShardBuilt.of(META, "speech", "r1", 0, "/data", "/staging/s0.tar.zst", 1000, A,
            "/staging/s0.members.jsonl", 120, B, 3, 3000);
    final UploadTask task = new UploadTask("primary", "datasets/speech/r1/shards/" + A + ".tar.zst", ObjectKind.SHARD,
            Path.of("/staging/s0.tar.zst"), 1000, A);

    @Test
    void aStoredObjectIsUploadedCausedByTheIncomingEvent() {
        ObjectUploaded event = (ObjectUploaded) UploadEvents.of(cause, task, "stowage-primary",
                new UploadOutcome.Stored("etag-1", true), clock);

        assertThat(event).extracting(ObjectUploaded::assetId, ObjectUploaded::store, ObjectUploaded::bucket,
                        ObjectUploaded::key, ObjectUploaded::kind, ObjectUploaded::bytes, ObjectUploaded::sha256,
                        ObjectUploaded::etag, ObjectUploaded::localPath, ObjectUploaded::skipped)
                .containsExactly("dataset/speech/r1", "primary", "stowage-primary", task.key(), ObjectKind.SHARD, 1000L,
                        A, "etag-1", "/staging/s0.tar.zst", true);
        assertThat(event.meta().causationId()).isEqualTo("e-1");
        assertThat(event.meta().correlationId()).isEqualTo("flow-1");
        assertThat(event.meta().time()).isEqualTo(Instant.parse("2026-11-30T01:02:03Z"));
        assertThat(event.meta().eventId()).isNotEqualTo("e-1");
    }

    @Test
    void aFailedTaskKeepsItsReasonAndWhetherItIsPermanent() {
        ObjectUploadFailed event = (ObjectUploadFailed) UploadEvents.of(cause, task, "stowage-primary",
                new UploadOutcome.Failed("s0.tar.zst changed since publish", true), clock);

        assertThat(event.reason()).isEqualTo("s0.tar.zst changed since publish");
        assertThat(event.permanent()).isTrue();
        assertThat(event.key()).isEqualTo(task.key());
        assertThat(event.localPath()).isEqualTo("/staging/s0.tar.zst");
        assertThat(event.meta().causationId()).isEqualTo("e-1");
    }

    @Test
    void aRefusedPlanIsAPermanentFailureWithoutKey() {
        ObjectUploadFailed event = UploadEvents.refused(cause,
                new PlanRefusedException("/staging/m.json", "manifest changed"), clock);
        assertThat(event.key()).isNull();
        assertThat(event.localPath()).isEqualTo("/staging/m.json");
        assertThat(event.reason()).isEqualTo("manifest changed");
        assertThat(event.permanent()).isTrue();
    }
}
