package io.stowage.ledger.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.InvalidEventException;

import java.util.List;

/**
 * The text of a milestone archive: consumes the chain rows of one closed asset (in seq order, each with the link
 * of the row before it) and produces JSON lines, UTF-8, each ending in {@code "\n"}: first a header
 * <pre>{"archivedAsset":…,"events":N,"firstSeq":…,"format":"stowage-ledger-archive-v1","lastChainHash":…,"lastSeq":…}</pre>
 * then one line per row, {@code {"chainHash":H,"previousHash":P,"row":<canonical JSON of EventChain>}}, so that
 * anyone can check {@code H = SHA-256(P + "\n" + row)} line by line and compare {@code H} with the chain. Nothing in
 * it depends on when it is written: the same rows give the same text. Pure; compression is the caller's.
 */
public final class MilestoneArchive {
    /** The {@code format} of the header line. */
    public static final String FORMAT = "stowage-ledger-archive-v1";
    private static final ObjectMapper MAPPER = EventCodec.mapper();

    private MilestoneArchive() {
    }

    /**
     * One row of the archive.
     *
     * @param entry        the stored row with its seq and link
     * @param previousHash the link of row {@code seq - 1} ({@link EventChain#GENESIS} for seq 1)
     */
    public record Row(ChainEntry entry, String previousHash) {
    }

    /**
     * Which rows belong to a closed asset: those whose asset id or correlation id is {@code exact} or starts with
     * {@code prefix}. A run {@code run/E/R} owns its steps {@code checkpoint/E/R/<step>}; a dataset revision
     * {@code dataset/N/REV} owns itself.
     */
    public record Scope(String archivedAsset, String exact, String prefix) {

        /**
         * @param archivedAsset {@code run/<experiment>/<run>} or {@code dataset/<name>/<revision>}
         * @throws InvalidEventException for any other shape or an invalid name
         */
        public static Scope of(String archivedAsset) {
            String[] parts = archivedAsset == null ? new String[0] : archivedAsset.split("/", -1);
            if (parts.length == 3 && parts[0].equals("run")) {
                String run = AssetIds.run(parts[1], parts[2]);
                return new Scope(run, run, "checkpoint/" + parts[1] + "/" + parts[2] + "/");
            }
            if (parts.length == 3 && parts[0].equals("dataset")) {
                String dataset = AssetIds.dataset(parts[1], parts[2]);
                return new Scope(dataset, dataset, dataset + "/");
            }
            throw new InvalidEventException("an archived asset is run/<experiment>/<run> or dataset/<name>/<revision>, not "
                    + archivedAsset);
        }
    }

    /**
     * @param rows the scope's rows in seq order
     * @return the archive text (header line, then one line per row)
     * @throws IllegalStateException when a row's stored link is not {@code SHA-256(previous + "\n" + canonical JSON)}:
     *                               an edited row is never archived as if it were intact
     */
    public static String jsonl(Scope scope, List<Row> rows) {
        StringBuilder out = new StringBuilder(header(scope, rows)).append('\n');
        for (Row row : rows) {
            ChainEntry e = row.entry();
            String expected = EventChain.link(row.previousHash(), e.seq(), e.event());
            if (!expected.equals(e.chainHash())) {
                throw new IllegalStateException("event " + e.event().eventId() + " (seq " + e.seq()
                        + ") does not match its chain link; run stowage audit verify-chain");
            }
            out.append("{\"chainHash\":\"").append(e.chainHash()).append("\",\"previousHash\":\"")
                    .append(row.previousHash()).append("\",\"row\":").append(EventChain.canonicalJson(e.seq(), e.event()))
                    .append("}\n");
        }
        return out.toString();
    }

    private static String header(Scope scope, List<Row> rows) {
        ChainEntry first = rows.isEmpty() ? null : rows.get(0).entry();
        ChainEntry last = rows.isEmpty() ? null : rows.get(rows.size() - 1).entry();
        ObjectNode header = MAPPER.createObjectNode() // keys in sorted order
                .put("archivedAsset", scope.archivedAsset())
                .put("events", rows.size())
                .put("firstSeq", first == null ? 0 : first.seq())
                .put("format", FORMAT)
                .put("lastChainHash", last == null ? null : last.chainHash())
                .put("lastSeq", last == null ? 0 : last.seq());
        try {
            return MAPPER.writeValueAsString(header);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an archive header", e);
        }
    }
}
