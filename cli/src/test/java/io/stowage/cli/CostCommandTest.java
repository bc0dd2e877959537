package io.stowage.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code stowage cost --json} prints amounts as plain decimals, as its help promises. */
class CostCommandTest {

    @Test
    void amountsParsedAsDoublesArePrintedPlainEverywhereInTheTree() throws Exception {
        JsonNode parsed = EventCodec.mapper().readTree(
                "{\"totalCostUsd\":6.7E-5,\"lines\":[{\"costUsd\":1.4E-5,\"sizeBytes\":500000000000}],\"archive\":{\"monthlySavingUsd\":35.0}}");

        String printed = EventCodec.mapper().writeValueAsString(CostCommand.plainDecimals(parsed));

        assertThat(printed).isEqualTo(
                "{\"totalCostUsd\":0.000067,\"lines\":[{\"costUsd\":0.000014,\"sizeBytes\":500000000000}],\"archive\":{\"monthlySavingUsd\":35.0}}");
    }
}
