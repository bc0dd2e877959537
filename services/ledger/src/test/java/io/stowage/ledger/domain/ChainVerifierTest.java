package io.stowage.ledger.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.stowage.ledger.domain.EventChainTest.row;
import static org.assertj.core.api.Assertions.assertThat;

class ChainVerifierTest {

    private static List<ChainEntry> chain(int length) {
        List<ChainEntry> entries = new ArrayList<>();
        String previous = EventChain.GENESIS;
        for (long seq = 1; seq <= length; seq++) {
            StoredEvent event = row("e-" + seq, "{\"n\":" + seq + "}");
            previous = EventChain.link(previous, seq, event);
            entries.add(new ChainEntry(seq, event, previous));
        }
        return entries;
    }

    private static ChainReport verify(List<ChainEntry> entries, long headSeq, String headHash) {
        ChainVerifier verifier = new ChainVerifier();
        entries.forEach(verifier::accept);
        return verifier.finish(headSeq, headHash);
    }

    private static String last(List<ChainEntry> entries) {
        return entries.get(entries.size() - 1).chainHash();
    }

    @Test
    void intactChainAndEmptyChainVerify() {
        List<ChainEntry> entries = chain(5);
        assertThat(verify(entries, 5, last(entries))).isEqualTo(new ChainReport(5, true, null, null, null));
        assertThat(verify(List.of(), 0, EventChain.GENESIS)).isEqualTo(new ChainReport(0, true, null, null, null));
    }

    @Test
    void editedRowIsTheFirstBrokenLinkAndOnlyIt() {
        List<ChainEntry> entries = chain(5);
        ChainEntry third = entries.get(2);
        entries.set(2, new ChainEntry(3, row("e-3", "{\"n\":33}"), third.chainHash()));

        ChainReport report = verify(entries, 5, last(entries));

        assertThat(report.ok()).isFalse();
        assertThat(report.rows()).isEqualTo(5);
        assertThat(report.firstBrokenSeq()).isEqualTo(3);
        assertThat(report.firstBrokenEventId()).isEqualTo("e-3");
        assertThat(report.reason()).contains("the row was changed");
    }

    @Test
    void rewrittenHashIsCaughtAtTheNextRow() {
        List<ChainEntry> entries = chain(5);
        StoredEvent forged = row("e-3", "{\"n\":33}");
        entries.set(2, new ChainEntry(3, forged, EventChain.link(entries.get(1).chainHash(), 3, forged)));

        ChainReport report = verify(entries, 5, last(entries));

        assertThat(report.firstBrokenSeq()).isEqualTo(4);
        assertThat(report.firstBrokenEventId()).isEqualTo("e-4");
    }

    @Test
    void deletedRowsAreNamedByTheFirstMissingSeq() {
        List<ChainEntry> entries = chain(5);
        String head = last(entries);
        entries.remove(1);
        ChainReport middle = verify(entries, 5, head);
        assertThat(middle.firstBrokenSeq()).isEqualTo(2);
        assertThat(middle.firstBrokenEventId()).isNull();
        assertThat(middle.reason()).contains("seq 3 found where 2 was expected");

        List<ChainEntry> truncated = chain(5).subList(0, 4);
        ChainReport tail = verify(truncated, 5, head);
        assertThat(tail.ok()).isFalse();
        assertThat(tail.rows()).isEqualTo(4);
        assertThat(tail.firstBrokenSeq()).isEqualTo(5);
        assertThat(tail.reason()).contains("the chain head is at seq 5 but the rows end at seq 4");
    }
}
