package io.stowage.console.domain;

import java.time.Instant;
import java.util.List;

/**
 * One release request and what became of it, from the ledger's release listing.
 *
 * @param requestId     the request's id (the correlation id of its events)
 * @param path          the directory asked for
 * @param dryRun        a dry run: the gate was evaluated, nothing deleted
 * @param requestedAt   time of the request event; null when unknown
 * @param requestedBy   the token name it was asked in; null when unknown
 * @param gate          {@code pending}, {@code passed} or {@code denied}
 * @param released      the provider-adapter deleted the directory
 * @param failureReason why an approved release did not happen; null otherwise
 * @param conditions    the five conditions as decided; empty while pending
 * @param failures      the failed conditions of a denial
 * @param fileCount     files that would be (or were) freed; 0 when denied
 * @param totalBytes    their bytes
 */
public record Release(String requestId, String path, boolean dryRun, Instant requestedAt, String requestedBy, String gate,
                      boolean released, String failureReason, List<Condition> conditions, List<Failure> failures,
                      int fileCount, long totalBytes) {
    public Release {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        failures = failures == null ? List.of() : List.copyOf(failures);
    }

    /** @return one word for the page: released, passed, denied, failed or pending */
    public String outcome() {
        if (released) {
            return "released";
        }
        if (failureReason != null) {
            return "failed";
        }
        return gate;
    }

    /** @return true once nothing more will happen to this request */
    public boolean finished() {
        return "denied".equals(gate) || released || failureReason != null || (dryRun && "passed".equals(gate));
    }

    /** @return true when the gate denied it */
    public boolean denied() {
        return "denied".equals(gate);
    }

    /** @return the conditions that did not hold, in number order */
    public List<Condition> failing() {
        return conditions.stream().filter(c -> !c.passed()).toList();
    }

    /** @return the bytes that would be freed, in words */
    public String bytesText() {
        return Sizes.human(totalBytes);
    }
}
