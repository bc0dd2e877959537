package io.stowage.verifier;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;
import java.util.Map;

/**
 * The verifier with a real ledger beside it, the scrub not scheduled (the test runs it at instants it picks), a
 * budget of 2 MiB per hour, a period of 4 hours, and no full read on upload for non-manifest primary objects that are
 * not shards or checkpoint files (fraction 0), so only the scrub re-reads the test's model files.
 */
public final class ScrubProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("stowage.verifier.scrub.enabled", "false",
                "stowage.verifier.scrub.bytes-per-hour", String.valueOf(2L << 20),
                "stowage.verifier.scrub.period", "PT4H",
                "stowage.verifier.full-read-fraction", "0.0");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(LedgerProcessResource.class));
    }
}
