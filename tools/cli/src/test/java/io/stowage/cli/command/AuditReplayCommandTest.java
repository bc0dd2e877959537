package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How {@code stowage audit replay} words one difference: by column, or which side lacks the row. */
class AuditReplayCommandTest {

    private static JsonNode json(String text) throws Exception {
        return EventCodec.mapper().readTree(text);
    }

    @Test
    void namesEachDifferingColumnWithBothValues() throws Exception {
        var d = new AuditReplayCommand.Difference("ledger_object", "dataset/a/r1", "primary/b/k",
                json("{\"sha256\":\"fff\",\"bytes\":10,\"kind\":\"SHARD\"}"),
                json("{\"sha256\":\"aaa\",\"bytes\":10,\"kind\":\"SHARD\"}"));
        assertThat(AuditReplayCommand.columns(d)).isEqualTo("sha256: live \"fff\", replay \"aaa\"");
    }

    @Test
    void saysWhichSideLacksTheRow() throws Exception {
        JsonNode row = json("{\"asset_id\":\"dataset/a/r1\"}");
        assertThat(AuditReplayCommand.columns(new AuditReplayCommand.Difference("ledger_asset", "dataset/a/r1",
                "dataset/a/r1", row, null))).isEqualTo("only in the live ledger");
        assertThat(AuditReplayCommand.columns(new AuditReplayCommand.Difference("ledger_asset", "dataset/a/r1",
                "dataset/a/r1", null, row))).isEqualTo("only in the replay");
    }
}
