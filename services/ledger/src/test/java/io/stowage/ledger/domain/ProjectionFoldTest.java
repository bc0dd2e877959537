package io.stowage.ledger.domain;

import io.stowage.events.CheckpointExpired;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.VerifyMethod;
import io.stowage.events.VerifyResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProjectionFoldTest {

    @Test
    void foldsObjectsOncePerEventIdWithTheLiveProjectionRules() {
        ObjectUploaded first = Events.uploaded(Events.T0, "k/1", 1000, Events.SHA_A);
        ObjectUploaded second = Events.uploaded(Events.T0.plusSeconds(1), "k/2", 2000, Events.SHA_B);
        ObjectVerified head = Events.verified(Events.T0.plusSeconds(2), "k/1", VerifyMethod.HEAD, VerifyResult.OK);
        ObjectVerified fullRead = Events.verified(Events.T0.plusSeconds(3), "k/1", VerifyMethod.FULL_READ, VerifyResult.OK);
        ObjectVerified later = Events.verified(Events.T0.plusSeconds(1), "k/1", VerifyMethod.FULL_READ, VerifyResult.MISMATCH);

        ProjectionFold fold = new ProjectionFold();
        for (var event : List.of(first, second, head, fullRead, first, later)) {
            fold.apply(event);
        }

        assertThat(fold.applied()).isEqualTo(5);
        assertThat(fold.duplicates()).isEqualTo(1);
        assertThat(fold.objects()).extracting(ObjectRecord::key).containsExactly("k/1", "k/2");
        ObjectRecord k1 = fold.objects().iterator().next();
        assertThat(k1.bytes()).isEqualTo(1000);
        assertThat(k1.sha256()).isEqualTo(Events.SHA_A);
        assertThat(k1.headResult()).isEqualTo(VerifyResult.OK);
        assertThat(k1.fullReadResult()).as("the full read applied last wins, whatever its event time")
                .isEqualTo(VerifyResult.MISMATCH);
        assertThat(k1.fullReadEventId()).isEqualTo(later.meta().eventId());
        assertThat(k1).isEqualTo(ObjectProjection.apply(ObjectProjection.apply(ObjectProjection.apply(
                ObjectProjection.apply(null, first), head), fullRead), later));
    }

    @Test
    void anExpiryRemovesItsObjectsWhicheverOrderTheTopicsAreReadIn() {
        String key = "checkpoints/e/r/000000000100/" + Events.SHA_A + "/model.pt";
        String asset = "checkpoint/e/r/000000000100";
        ObjectUploaded upload = ObjectUploaded.of(Events.meta(Events.T0), asset, "primary", "stowage-primary", key,
                ObjectKind.CHECKPOINT_FILE, 1000, Events.SHA_A, "etag-1", "/hot/step-100/model.pt", false);
        CheckpointExpired expiry = CheckpointExpired.of(Events.meta(Events.T0.plusSeconds(60)), "e", "r", 100,
                "c".repeat(64), List.of(new CheckpointExpired.ExpiredObject("primary", "stowage-primary", key, 1000)), "ops");
        ObjectUploaded reupload = ObjectUploaded.of(Events.meta(Events.T0.plusSeconds(120)), asset, "primary",
                "stowage-primary", key, ObjectKind.CHECKPOINT_FILE, 1000, Events.SHA_A, "etag-2", "/hot/step-100/model.pt", false);

        ProjectionFold uploadFirst = new ProjectionFold();
        uploadFirst.apply(upload);
        uploadFirst.apply(expiry);
        ProjectionFold expiryFirst = new ProjectionFold();
        expiryFirst.apply(expiry);
        expiryFirst.apply(upload);
        ProjectionFold reuploaded = new ProjectionFold();
        reuploaded.apply(reupload);
        reuploaded.apply(expiry);
        reuploaded.apply(upload);

        assertThat(uploadFirst.objects()).isEmpty();
        assertThat(expiryFirst.objects()).as("an upload older than the expiry, read after it, stays deleted").isEmpty();
        assertThat(reuploaded.objects()).as("a re-upload after the expiry counts, as it would live")
                .extracting(ObjectRecord::etag).containsExactly("etag-2");
    }
}
