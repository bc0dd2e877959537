package io.stowage.cli.output;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Columns as wide as their longest cell, whatever the values. */
class TableTest {
    @Test
    void everyColumnStartsAtTheSameOffsetInEveryRow() {
        String text = new Table("ID", "SIZE", "STATE", "PATH").rightAligned(1)
                .row("vol-0123456789abcdef0123456789abcdef0123456789", "5 GB", "BLOCKED", "/a")
                .row("v", "1000 GB", "LIVE", "/scratch/b c")
                .row("w", "1 GB", null, "/c")
                .render();

        String[] lines = text.split("\n");
        assertThat(lines).hasSize(4);
        int state = lines[0].indexOf("STATE");
        int path = lines[0].indexOf("PATH");
        assertThat(lines[1].indexOf("BLOCKED")).isEqualTo(state);
        assertThat(lines[2].indexOf("LIVE")).isEqualTo(state);
        assertThat(lines[3].indexOf("-  ")).isEqualTo(state);
        assertThat(lines[1].indexOf("/a")).isEqualTo(path);
        assertThat(lines[2].indexOf("/scratch/b c")).isEqualTo(path);
        assertThat(lines[1].indexOf("5 GB") + "5 GB".length()).as("numbers end at the column's right edge")
                .isEqualTo(lines[2].indexOf("1000 GB") + "1000 GB".length());
        assertThat(text).doesNotContain(" \n");
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        assertThatThrownBy(() -> new Table("A", "B").row("1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 cells in a table of 2 columns");
    }
}
