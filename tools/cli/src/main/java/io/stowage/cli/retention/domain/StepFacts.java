package io.stowage.cli.retention.domain;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What retention knows of one stored checkpoint step, from the ledger.
 *
 * @param step        the step number
 * @param verified    every file of the step is stored and verified (in the replica too for a key checkpoint)
 * @param pinned      an operator pinned it ({@code stowage checkpoint pin})
 * @param key         a key checkpoint
 * @param tags        its tags as published; never null
 * @param metrics     its metrics as published; never null
 * @param publishedAt publish time; null when unknown (a TTL then never expires it)
 * @param leased      a live fetch lease holds it (a resume is reading it)
 * @param promotedTo  the model revisions promoted from it ({@code model/<model>/<revision>}); never null
 */
public record StepFacts(long step, boolean verified, boolean pinned, boolean key, List<String> tags,
                        Map<String, Double> metrics, Instant publishedAt, boolean leased, List<String> promotedTo) {
    public StepFacts {
        tags = List.copyOf(tags);
        metrics = Map.copyOf(metrics);
        promotedTo = List.copyOf(promotedTo);
    }

    /** Facts of a step no model revision names. */
    public StepFacts(long step, boolean verified, boolean pinned, boolean key, List<String> tags,
                     Map<String, Double> metrics, Instant publishedAt, boolean leased) {
        this(step, verified, pinned, key, tags, metrics, publishedAt, leased, List.of());
    }
}
