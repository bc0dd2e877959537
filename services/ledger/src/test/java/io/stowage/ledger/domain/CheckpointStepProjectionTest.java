package io.stowage.ledger.domain;

import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointPinned;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.Provenance;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.stowage.ledger.domain.Events.SHA_A;
import static io.stowage.ledger.domain.Events.T0;
import static org.assertj.core.api.Assertions.assertThat;

class CheckpointStepProjectionTest {
    private static final String ASSET = "checkpoint/exp/run1/000000000300";
    private static final String KEY = "checkpoints/exp/run1/000000000300/" + SHA_A + "/model.pt";

    private static EventMeta meta(long second) {
        return new EventMeta(UUID.randomUUID().toString(), 1, T0.plusSeconds(second), ASSET, null);
    }

    private static CheckpointPublished published() {
        return CheckpointPublished.of(meta(0), "exp", "run1", 300, "/hot/300", "/stage/300.json", SHA_A, 1, 7, false,
                List.of("temporary"), new Provenance("abc", SHA_A, SHA_A), Map.of("val_loss", 0.42));
    }

    @Test
    void aPinSeenBeforeThePublishIsKeptAndTheNewerOfPinAndUnpinWinsInAnyOrder() {
        CheckpointPinned pin = CheckpointPinned.of(meta(5), "exp", "run1", 300, true, "ops");
        CheckpointPinned unpin = CheckpointPinned.of(meta(9), "exp", "run1", 300, false, "ops");

        CheckpointStepRecord s = CheckpointStepProjection.apply(CheckpointStepProjection.apply(null, pin), published());
        assertThat(s.pinned()).isTrue();
        assertThat(s.metrics()).containsEntry("val_loss", 0.42);
        assertThat(s.tags()).containsExactly("temporary");
        assertThat(s.fileCount()).isEqualTo(1);

        CheckpointStepRecord unpinnedFirst = CheckpointStepProjection.apply(CheckpointStepProjection.apply(s, unpin), pin);
        assertThat(unpinnedFirst.pinned()).as("the older pin arrives late and changes nothing").isFalse();
        assertThat(unpinnedFirst.pinEventId()).isEqualTo(unpin.meta().eventId());
    }

    @Test
    void anExpiryIsFinalAndReplayDropsTheDeletedObjectsAsTheLiveLedgerDoes() {
        CheckpointExpired expired = CheckpointExpired.of(meta(20), "exp", "run1", 300, SHA_A,
                List.of(new CheckpointExpired.ExpiredObject("primary", "stowage-primary", KEY, 7)), "ops");
        CheckpointStepRecord s = CheckpointStepProjection.apply(CheckpointStepProjection.apply(null, published()), expired);
        assertThat(s.expiredEventId()).isEqualTo(expired.meta().eventId());
        assertThat(s.expiredBytes()).isEqualTo(7);
        assertThat(CheckpointStepProjection.apply(s, CheckpointExpired.of(meta(30), "exp", "run1", 300, SHA_A,
                List.of(new CheckpointExpired.ExpiredObject("primary", "stowage-primary", KEY, 99)), "ops")).expiredBytes())
                .as("a second expiry changes nothing").isEqualTo(7);

        ProjectionFold fold = new ProjectionFold();
        fold.apply(published());
        fold.apply(ObjectUploaded.of(meta(1), ASSET, "primary", "stowage-primary", KEY, ObjectKind.CHECKPOINT_FILE, 7,
                SHA_A, "e", "/hot/300/model.pt", false));
        fold.apply(CheckpointPinned.of(meta(2), "exp", "run1", 300, true, "ops"));
        assertThat(fold.objects()).hasSize(1);
        fold.apply(expired);
        assertThat(fold.objects()).isEmpty();
        assertThat(fold.unprojected()).isZero();
    }

    @Test
    void aLeaseKeepsTheLatestEndInAnyOrderAndNeitherSetsNorLiftsThePin() {
        CheckpointPinned shortLease = CheckpointPinned.lease(meta(10), "exp", "run1", 300, "trainer", T0.plusSeconds(100));
        CheckpointPinned longLease = CheckpointPinned.lease(meta(5), "exp", "run1", 300, "trainer", T0.plusSeconds(900));
        CheckpointPinned unpin = CheckpointPinned.of(meta(20), "exp", "run1", 300, false, "ops");

        CheckpointStepRecord leased = CheckpointStepProjection.apply(CheckpointStepProjection.apply(null, published()), longLease);
        assertThat(leased.pinned()).as("a lease is not a pin").isFalse();
        assertThat(leased.pinEventId()).isNull();
        assertThat(leased.leaseUntil()).isEqualTo(T0.plusSeconds(900));
        assertThat(CheckpointStepProjection.apply(leased, shortLease).leaseUntil())
                .as("a newer lease that ends sooner does not shorten the older one").isEqualTo(T0.plusSeconds(900));
        assertThat(CheckpointStepProjection.apply(CheckpointStepProjection.apply(null, shortLease), longLease).leaseUntil())
                .isEqualTo(T0.plusSeconds(900));

        CheckpointStepRecord pinned = CheckpointStepProjection.apply(leased,
                CheckpointPinned.of(meta(15), "exp", "run1", 300, true, "ops"));
        CheckpointStepRecord unpinned = CheckpointStepProjection.apply(pinned, unpin);
        assertThat(unpinned.pinned()).isFalse();
        assertThat(unpinned.leaseUntil()).as("an unpin leaves the lease").isEqualTo(T0.plusSeconds(900));
        assertThat(CheckpointStepProjection.apply(pinned, shortLease).pinned()).as("a lease leaves the pin").isTrue();
        assertThat(CheckpointStepProjection.apply(unpinned, CheckpointExpired.of(meta(30), "exp", "run1", 300, SHA_A,
                List.of(new CheckpointExpired.ExpiredObject("primary", "stowage-primary", KEY, 7)), "ops")).leaseUntil())
                .isEqualTo(T0.plusSeconds(900));
    }

    @Test
    void theCapsulesPolicyIsKeptWithTheStepThroughPinsLeasesAndExpiryAndAPinFirstHasNone() {
        io.stowage.events.RetentionDecided.Policy policy =
                new io.stowage.events.RetentionDecided.Policy(3, null, null, null, null, "PT6H", null, false);
        CheckpointPublished withPolicy = CheckpointPublished.of(meta(0), "exp", "run1", 300, "/hot/300", "/stage/300.json",
                SHA_A, 1, 7, false, List.of(), new Provenance("abc", SHA_A, SHA_A), Map.of(), policy);
        CheckpointPinned pin = CheckpointPinned.of(meta(5), "exp", "run1", 300, true, "ops");

        CheckpointStepRecord pinnedFirst = CheckpointStepProjection.apply(null, pin);
        assertThat(pinnedFirst.retention()).as("unknown until published").isNull();
        CheckpointStepRecord s = CheckpointStepProjection.apply(pinnedFirst, withPolicy);
        assertThat(s.retention()).isEqualTo(policy);
        assertThat(CheckpointStepProjection.apply(s, CheckpointPinned.lease(meta(6), "exp", "run1", 300, "trainer",
                T0.plusSeconds(60))).retention()).isEqualTo(policy);
        assertThat(CheckpointStepProjection.apply(s, published()).retention())
                .as("a publish that states none replaces it").isNull();
    }
}
