package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.client.HttpJson;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code stowage cost --json} prints amounts as plain decimals, as its help promises: answers keep them as decimals. */
class CostCommandTest {

    @Test
    void amountsInAnAnswerArePrintedAgainAsPlainDecimalsEverywhereInTheTree() throws Exception {
        byte[] answer = ("{\"totalCostUsd\":0.000067,\"lines\":[{\"costUsd\":1.4E-5,\"sizeBytes\":500000000000}],"
                + "\"archive\":{\"monthlySavingUsd\":35.000000}}").getBytes(StandardCharsets.UTF_8);

        JsonNode report = HttpJson.read(answer, EventCodec.mapper().constructType(JsonNode.class));

        assertThat(EventCodec.mapper().writeValueAsString(report)).isEqualTo(
                "{\"totalCostUsd\":0.000067,\"lines\":[{\"costUsd\":0.000014,\"sizeBytes\":500000000000}],"
                        + "\"archive\":{\"monthlySavingUsd\":35}}"); // the tree drops trailing zeros, never the value
    }
}
