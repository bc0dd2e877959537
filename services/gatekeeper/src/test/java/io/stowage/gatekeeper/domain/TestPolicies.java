package io.stowage.gatekeeper.domain;

import io.stowage.events.ReleaseTargetPolicy;

import java.util.List;

/** Path rules for the in-memory gate tests: volume root {@code /vol}, home {@code /home/tester}. */
final class TestPolicies {
    private TestPolicies() {
    }

    /** @return the rule with volume root /vol and these protected roots */
    static ReleaseTargetPolicy protecting(List<String> protectedRoots) {
        return ReleaseTargetPolicy.of(protectedRoots, List.of("/vol"), "/home/tester");
    }
}
