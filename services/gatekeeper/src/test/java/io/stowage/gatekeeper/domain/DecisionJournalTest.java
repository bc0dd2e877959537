package io.stowage.gatekeeper.domain;

import io.stowage.events.EventMeta;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.Topics;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionJournalTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
    private final DecisionJournal journal = new DecisionJournal();
    private final ReleaseRequested request = ReleaseRequested.of(EventMeta.first("r-1", CLOCK), "r-1", "/vol/data/x",
            false, "test");
    private final String id = GateAnswer.decisionId(request);

    @Test
    void aJournalThatHasNeverReadTheTopicsCannotTell() {
        journal.record(new DecisionJournal.Entry(id, Topics.GATE_PASSED, 0, 4));

        assertThat(journal.lookup(id, 100).status()).isEqualTo(DecisionJournal.Lookup.Status.UNKNOWN);
    }

    @Test
    void aQuestionAfterTheLastPassWaitsForTheNextOne() {
        journal.caughtUp(100);

        assertThat(journal.lookup(id, 101).status()).as("a decision acknowledged at 100.5 may not be read yet")
                .isEqualTo(DecisionJournal.Lookup.Status.UNKNOWN);
        journal.record(new DecisionJournal.Entry(id, Topics.GATE_PASSED, 0, 4));
        journal.caughtUp(102);
        assertThat(journal.lookup(id, 101).status()).isEqualTo(DecisionJournal.Lookup.Status.DECIDED);
    }

    @Test
    void aRequestNeverDecidedIsNoneOnceCaughtUp() {
        journal.record(new DecisionJournal.Entry("other", Topics.GATE_DENIED, 1, 0));
        journal.caughtUp(200);

        assertThat(journal.lookup(id, 150)).isEqualTo(new DecisionJournal.Lookup(DecisionJournal.Lookup.Status.NONE, null));
    }

    @Test
    void theFirstDecisionReadStaysAndASecondWithTheSameIdChangesNothing() {
        DecisionJournal.Entry approval = new DecisionJournal.Entry(id, Topics.GATE_PASSED, 2, 10);
        DecisionJournal.Entry laterDenial = new DecisionJournal.Entry(id, Topics.GATE_DENIED, 0, 3);

        assertThat(journal.record(approval)).isTrue();
        assertThat(journal.record(laterDenial)).isFalse();
        journal.caughtUp(10);

        assertThat(journal.lookup(id, 5).entry()).isEqualTo(approval);
        assertThat(journal.size()).isEqualTo(1);
    }

    @Test
    void everyDeliveryOfARequestAsksForTheSameIdAndANewRequestForAnother() {
        ReleaseRequested again = ReleaseRequested.of(request.meta(), "r-1", "/vol/data/x", false, "test");
        ReleaseRequested newRequest = ReleaseRequested.of(EventMeta.first("r-1", CLOCK), "r-1", "/vol/data/x", false, "test");
        journal.record(new DecisionJournal.Entry(id, Topics.GATE_PASSED, 0, 1));
        journal.caughtUp(1);

        assertThat(journal.lookup(GateAnswer.decisionId(again), 0).status()).isEqualTo(DecisionJournal.Lookup.Status.DECIDED);
        assertThat(journal.lookup(GateAnswer.decisionId(newRequest), 0).status()).isEqualTo(DecisionJournal.Lookup.Status.NONE);
    }

    @Test
    void anOlderPassReportedLateDoesNotMoveTheMarkBack() {
        journal.caughtUp(500);
        journal.caughtUp(300);

        assertThat(journal.lookup(id, 400).status()).isEqualTo(DecisionJournal.Lookup.Status.NONE);
    }

    @Test
    void nanoTimeWrapsAroundWithoutLosingOrder() {
        journal.caughtUp(Long.MIN_VALUE + 5); // just past the wrap of Long.MAX_VALUE

        assertThat(journal.lookup(id, Long.MAX_VALUE - 5).status()).isEqualTo(DecisionJournal.Lookup.Status.NONE);
        assertThat(journal.lookup(id, Long.MIN_VALUE + 10).status()).isEqualTo(DecisionJournal.Lookup.Status.UNKNOWN);
    }
}
