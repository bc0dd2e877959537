package io.stowage.cli.audit;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ledger side of the store audit: following the {@code next} cursor and keeping one bucket's objects. */
class AuditStoreLedgerTest {

    @Test
    void followsTheCursorFromTheFirstPageToTheLastAndKeepsOneBucket() {
        Map<String, AuditStoreLedger.Page> pages = Map.of(
                "", new AuditStoreLedger.Page(List.of(object("b1", "k/1", 1), object("b2", "k/1", 9)), "k/1"),
                "k/1", new AuditStoreLedger.Page(List.of(object("b1", "k/2", 2), object("b1", "k/3", 3)), "k/3"),
                "k/3", new AuditStoreLedger.Page(List.of(), null));
        List<String> asked = new ArrayList<>();

        List<AuditStoreEntry> entries = AuditStoreLedger.collect("b1", after -> {
            asked.add(after);
            return pages.get(after);
        });

        assertThat(asked).containsExactly("", "k/1", "k/3");
        assertThat(entries).containsExactly(new AuditStoreEntry("k/1", 1, "1".repeat(64)),
                new AuditStoreEntry("k/2", 2, "2".repeat(64)), new AuditStoreEntry("k/3", 3, "3".repeat(64)));
    }

    @Test
    void refusesAPageThatPointsAtItself() {
        AuditStoreLedger.Page stuck = new AuditStoreLedger.Page(List.of(object("b1", "k/1", 1)), "k/1");
        assertThatThrownBy(() -> AuditStoreLedger.collect("b1", after -> stuck))
                .isInstanceOf(CliException.class).hasMessageContaining("repeats the page after k/1");
    }

    @Test
    void decodesThePageAsTheLedgerWritesIt() throws Exception {
        String json = "{\"objects\":[{\"store\":\"primary\",\"bucket\":\"stowage-primary\",\"key\":\"k/B.bin\","
                + "\"kind\":\"SHARD\",\"bytes\":100,\"sha256\":\"" + "0".repeat(64) + "\",\"localPath\":null,"
                + "\"headResult\":\"OK\",\"fullReadResult\":null}],\"next\":\"k/B.bin\"}";

        AuditStoreLedger.Page page = io.stowage.events.EventCodec.mapper().readValue(json, AuditStoreLedger.Page.class);

        assertThat(page.next()).isEqualTo("k/B.bin");
        assertThat(page.objects()).containsExactly(new ObjectEvidence("primary", "stowage-primary", "k/B.bin",
                ObjectKind.SHARD, 100, "0".repeat(64), null, VerifyResult.OK, null));
    }

    private static ObjectEvidence object(String bucket, String key, long bytes) {
        return new ObjectEvidence("primary", bucket, key, ObjectKind.SHARD, bytes, String.valueOf(bytes).repeat(64),
                "/staging/" + key, VerifyResult.OK, null);
    }
}
