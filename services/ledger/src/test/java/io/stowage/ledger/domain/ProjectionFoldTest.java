package io.stowage.ledger.domain;

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
}
