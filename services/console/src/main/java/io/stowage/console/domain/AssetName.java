package io.stowage.console.domain;

import java.util.List;
import java.util.Optional;

/**
 * The parts of an asset id the pages are addressed by: {@code dataset/<name>/<revision>} and
 * {@code checkpoint/<experiment>/<run>/<step>}. Pure logic.
 *
 * @param kind  {@code dataset} or {@code checkpoint}
 * @param parts the id's parts after the kind: [name, revision] or [experiment, run, step]
 */
public record AssetName(String kind, List<String> parts) {
    /** @return the parsed id, or empty when it is neither a dataset revision nor a checkpoint step */
    public static Optional<AssetName> parse(String assetId) {
        if (assetId == null) {
            return Optional.empty();
        }
        String[] split = assetId.split("/", -1);
        if (split.length == 3 && "dataset".equals(split[0])) {
            return Optional.of(new AssetName("dataset", List.of(split[1], split[2])));
        }
        if (split.length == 4 && "checkpoint".equals(split[0]) && split[3].matches("\\d{1,18}")) {
            return Optional.of(new AssetName("checkpoint", List.of(split[1], split[2], split[3])));
        }
        return Optional.empty();
    }

    /** @return {@code true} for a dataset revision */
    public boolean dataset() {
        return "dataset".equals(kind);
    }

    /** @return the dataset name or the experiment */
    public String first() {
        return parts.get(0);
    }

    /** @return the dataset revision or the run */
    public String second() {
        return parts.get(1);
    }

    /** @return the checkpoint step; @throws IllegalStateException for a dataset */
    public long step() {
        if (dataset()) {
            throw new IllegalStateException("a dataset revision has no step");
        }
        return Long.parseLong(parts.get(2));
    }
}
