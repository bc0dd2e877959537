package io.stowage.cli.run;

import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which SHA-256s of a capsule count as verified objects, judged from the ledger's object evidence. */
class LedgerDigestsTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);
    private static final String C = "c".repeat(64);
    private static final String D = "d".repeat(64);

    private static ObjectEvidence object(String store, String sha, VerifyResult head, VerifyResult full) {
        return new ObjectEvidence(store, "bucket-" + store, "checkpoints/e/r/000000000050/" + sha + "/model.pt",
                ObjectKind.values()[0], 10, sha, "/hot/model.pt", head, full);
    }

    @Test
    void onlyAVerifiedObjectWithNoFailedCopyResolves() {
        Map<String, String> digests = new LinkedHashMap<>();
        digests.put("dataManifestSha256", A);
        digests.put("resumeFromSha256", B);
        digests.put("modelSha256", C);
        Map<String, String> unknown = Map.of("modelSha256", D);
        List<ObjectEvidence> objects = List.of(object("primary", A, VerifyResult.OK, null),
                object("primary", B, VerifyResult.OK, VerifyResult.OK), object("replica", B, VerifyResult.MISMATCH, null),
                object("primary", C, null, null));

        List<LintProblem> problems = LedgerDigests.judge(digests, objects);

        assertThat(problems).extracting(LintProblem::field).containsExactly("resumeFromSha256", "modelSha256");
        assertThat(problems.get(0).problem()).contains("failed verification at replica").contains("HEAD MISMATCH");
        assertThat(problems.get(1).problem()).endsWith("but not verified yet");
        assertThat(LedgerDigests.judge(unknown, objects)).extracting(LintProblem::problem)
                .containsExactly(D + " is no object in the ledger");
    }
}
