package io.stowage.cli.output;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table whose columns are as wide as their longest cell, so that rows line up whatever the values
 * (long ids, names, timestamps with fractions of a second). Cells are separated by two spaces; a column listed in
 * {@code rightAligned} is padded on the left (numbers); the last column is never padded.
 *
 * <pre>{@code
 * Table t = new Table("ID", "SIZE", "PATH").rightAligned(1);
 * t.row("vol-1", "10 GB", "/scratch/a");
 * t.print(System.out);
 * }</pre>
 */
public final class Table {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;
    private boolean[] right;

    /** @param header the column titles; every row must have as many cells */
    public Table(String... header) {
        this.columns = header.length;
        this.right = new boolean[columns];
        rows.add(header.clone());
    }

    /** @param indexes the zero-based columns to align right */
    public Table rightAligned(int... indexes) {
        for (int i : indexes) {
            right[i] = true;
        }
        return this;
    }

    /**
     * @param cells one value per column; null prints as {@code -}
     * @throws IllegalArgumentException when the count differs from the header's
     */
    public Table row(String... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + columns + " columns");
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "-" : c).toArray(String[]::new));
        return this;
    }

    /** @return the table, header first, one line per row, each ending in a line feed */
    public String render() {
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    line.append("  ");
                }
                String cell = row[c];
                String pad = " ".repeat(width[c] - cell.length());
                boolean last = c == columns - 1;
                line.append(right[c] ? pad + cell : last ? cell : cell + pad);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** Prints {@link #render()} to {@code out}. */
    public void print(PrintStream out) {
        out.print(render());
    }
}
