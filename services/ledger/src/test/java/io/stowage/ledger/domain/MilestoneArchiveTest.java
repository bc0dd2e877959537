package io.stowage.ledger.domain;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MilestoneArchiveTest {

    private static StoredEvent event(String id, String asset) {
        return new StoredEvent(id, "checkpoint.published", "io.stowage.checkpoint.published.v1", asset, asset, null,
                Events.T0, Events.T0, 1, 7, "{\"b\":1,\"a\":\"x\"}", false, null);
    }

    /** Rows seq 4 and 9 of a chain whose links are computed as the ledger computes them. */
    private static List<MilestoneArchive.Row> rows() {
        List<MilestoneArchive.Row> rows = new ArrayList<>();
        String previous = "1".repeat(64);
        for (long seq : new long[]{4, 9}) {
            StoredEvent e = event("e-" + seq, "checkpoint/exp/run-1/00000000000" + seq);
            String link = EventChain.link(previous, seq, e);
            rows.add(new MilestoneArchive.Row(new ChainEntry(seq, e, link), previous));
            previous = "2".repeat(64);
        }
        return rows;
    }

    @Test
    void aRunOwnsItsStepsAndADatasetRevisionItself() {
        assertThat(MilestoneArchive.Scope.of("run/exp/run-1"))
                .isEqualTo(new MilestoneArchive.Scope("run/exp/run-1", "run/exp/run-1", "checkpoint/exp/run-1/"));
        assertThat(MilestoneArchive.Scope.of("dataset/speech/r1"))
                .isEqualTo(new MilestoneArchive.Scope("dataset/speech/r1", "dataset/speech/r1", "dataset/speech/r1/"));
        assertThatThrownBy(() -> MilestoneArchive.Scope.of("checkpoint/exp/run-1")).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> MilestoneArchive.Scope.of("run/exp/../x")).isInstanceOf(InvalidEventException.class);
    }

    @Test
    void aHeaderThenOneCheckableLinePerRowInSeqOrder() throws Exception {
        List<MilestoneArchive.Row> rows = rows();
        String text = MilestoneArchive.jsonl(MilestoneArchive.Scope.of("run/exp/run-1"), rows);

        String[] lines = text.split("\n", -1);
        assertThat(lines).hasSize(4);
        assertThat(lines[3]).isEmpty();
        assertThat(lines[0]).isEqualTo("{\"archivedAsset\":\"run/exp/run-1\",\"events\":2,\"firstSeq\":4,"
                + "\"format\":\"stowage-ledger-archive-v1\",\"lastChainHash\":\"" + rows.get(1).entry().chainHash()
                + "\",\"lastSeq\":9}");
        for (int i = 0; i < 2; i++) {
            ChainEntry entry = rows.get(i).entry();
            assertThat(lines[i + 1]).isEqualTo("{\"chainHash\":\"" + entry.chainHash() + "\",\"previousHash\":\""
                    + rows.get(i).previousHash() + "\",\"row\":" + EventChain.canonicalJson(entry.seq(), entry.event()) + "}");
            JsonNode line = EventCodec.mapper().readTree(lines[i + 1]);
            assertThat(line.get("row").get("payloadJson").toString()).isEqualTo("{\"a\":\"x\",\"b\":1}");
        }
        assertThat(MilestoneArchive.jsonl(MilestoneArchive.Scope.of("run/exp/run-1"), rows())).isEqualTo(text);
    }

    @Test
    void anEditedRowIsRefusedAndNoRowsGiveAHeaderOnly() {
        List<MilestoneArchive.Row> rows = rows();
        ChainEntry first = rows.get(0).entry();
        StoredEvent edited = event(first.event().eventId(), first.event().assetId());
        edited = new StoredEvent(edited.eventId(), edited.topic(), edited.type(), edited.assetId(), edited.correlationId(),
                null, null, null, 1, 7, "{\"b\":2,\"a\":\"x\"}", false, null);
        rows.set(0, new MilestoneArchive.Row(new ChainEntry(first.seq(), edited, first.chainHash()), rows.get(0).previousHash()));

        assertThatThrownBy(() -> MilestoneArchive.jsonl(MilestoneArchive.Scope.of("run/exp/run-1"), rows))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("e-4 (seq 4)");
        assertThat(MilestoneArchive.jsonl(MilestoneArchive.Scope.of("dataset/speech/r1"), List.of())).isEqualTo(
                "{\"archivedAsset\":\"dataset/speech/r1\",\"events\":0,\"firstSeq\":0,\"format\":\"stowage-ledger-archive-v1\","
                        + "\"lastChainHash\":null,\"lastSeq\":0}\n");
    }
}
