package io.stowage.cli.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.platform.Session;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKind;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.stack.StackEndpoints;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The published form without a stack: the allow-list keeps exactly the documented fields (a bucket, local paths,
 * licence, source and upload failures the ledger answers never reach evidence.json), the page escapes every value,
 * the guard refuses each value of a session that must not be published, and the selection picks what was asked.
 */
class EvidenceExportTest {
    private static final String SHA = "a".repeat(64);
    private static final Instant HEAD_TIME = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant READ_TIME = Instant.parse("2026-12-01T10:00:05Z");

    private static AssetEvidence ledgerAnswer(String assetId, String key) {
        ObjectEvidence object = new ObjectEvidence("primary", "private-bucket-x1", key, ObjectKind.SHARD, 4096, SHA,
                "/hot/pod-7/datasets/speech/0001.tar.zst", VerifyResult.OK, VerifyResult.MISMATCH, "up-1", "head-1", "read-1");
        return new AssetEvidence(assetId, "dataset", "/hot/pod-7/datasets/speech", true, "/staging/manifest.json",
                "b".repeat(64), false, "r1", "licence-text-x2", "https://example.org/source-x3", null, List.of(object),
                List.of("PUT to http://10.1.2.3:9000 refused"), "sealed-1");
    }

    private static EvidenceExport export(EvidenceExport.Asset... assets) {
        return new EvidenceExport(EvidenceExport.FORMAT, Instant.parse("2026-12-01T11:00:00Z"), List.of(assets));
    }

    @Test
    void theAllowListKeepsOnlyTheDocumentedFieldsWithTheVerificationTimes() throws Exception {
        EvidenceExport.Asset asset = EvidenceAllowList.asset(ledgerAnswer("dataset/speech/r1", "datasets/speech/r1/shards/" + SHA + ".tar.zst"),
                Map.of("head-1", HEAD_TIME, "read-1", READ_TIME));
        String json = export(asset).toJson();
        JsonNode root = EventCodec.mapper().readTree(json);

        assertThat(names(root)).containsExactly("format", "generatedAt", "assets");
        JsonNode a = root.path("assets").get(0);
        assertThat(names(a)).containsExactly("assetId", "kind", "sealed", "keyCheckpoint", "manifestSha256", "objects");
        JsonNode o = a.path("objects").get(0);
        assertThat(names(o)).containsExactly("store", "key", "kind", "bytes", "sha256", "verifications");
        assertThat(names(o.path("verifications").get(0))).containsExactly("method", "result", "time", "eventId");
        assertThat(o.path("verifications").get(0).path("time").asText()).isEqualTo("2026-12-01T10:00:00Z");
        assertThat(o.path("verifications").get(1).path("result").asText()).isEqualTo("MISMATCH");
        assertThat(o.path("verifications").get(1).path("time").asText()).isEqualTo("2026-12-01T10:00:05Z");
        assertThat(o.path("sha256").asText()).isEqualTo(SHA);
        assertThat(o.path("bytes").asLong()).isEqualTo(4096);
        assertThat(json).doesNotContain("private-bucket-x1", "/hot/pod-7", "/staging", "licence-text-x2", "example.org",
                "10.1.2.3", "9000", "bucket", "localPath", "localRoot");
    }

    @Test
    void aVerificationWithoutAResultIsLeftOutAndAnUnknownTimeIsNull() {
        ObjectEvidence headOnly = new ObjectEvidence("replica", "b", "k", ObjectKind.CHECKPOINT_FILE, 1, SHA, null,
                VerifyResult.OK, null, "u", "head-9", null);
        AssetEvidence evidence = new AssetEvidence("checkpoint/e/r/00000001", "checkpoint", null, true, null, null, true,
                null, null, null, null, List.of(headOnly), List.of());
        EvidenceExport.StoredObject object = EvidenceAllowList.asset(evidence, Map.of()).objects().get(0);
        assertThat(object.verifications()).containsExactly(new EvidenceExport.Verification("HEAD", "OK", null, "head-9"));
    }

    @Test
    void thePageEscapesEveryValueAndLoadsNothing() {
        EvidenceExport.Asset hostile = EvidenceAllowList.asset(ledgerAnswer("dataset/<script>alert('x')</script>/r1",
                "k\"><img src=x onerror=alert(1)>&amp;"), Map.of());
        String html = EvidencePage.render(export(hostile));

        assertThat(html).contains("dataset/&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;/r1",
                "k&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;");
        assertThat(html).doesNotContain("<script", "<img", "://", "src=\"", "href=");
        assertThat(html).contains("<style>", "default-src 'none'");
        assertThat(EvidencePage.escape("a&b<c>d\"e'f")).isEqualTo("a&amp;b&lt;c&gt;d&quot;e&#39;f");
        assertThat(EvidencePage.escape(null)).isEmpty();
    }

    @Test
    void theGuardPassesAnExportAndRefusesEachValueOfTheSessionWithoutPrintingIt() {
        StackEndpoints stack = new StackEndpoints("127.0.0.1:41001", "http://127.0.0.1:41002", "us-east-1",
                "AKIDCANARY77", "SECRETCANARY77", "stowage-primary", "stowage-replica",
                "jdbc:postgresql://127.0.0.1:41003/stowage", "postgresql://127.0.0.1:41003/stowage", "stowage", "PGPASS77");
        Session session = new Session(stack, Map.of("ledger", "http://127.0.0.1:41004"), "/staging", List.of(), 1L);
        PublishGuard guard = PublishGuard.of(session, Optional.of("TOKENCANARY77"));
        String clean = EvidencePage.render(export(EvidenceAllowList.asset(ledgerAnswer("dataset/speech/r1", "k"), Map.of())))
                + export().toJson() + " \"bytes\" : 410045, x:410045, 2026-12-01T10:41:00Z";
        guard.check("index.html", clean);

        for (String secret : List.of("stowage-primary", "STOWAGE-REPLICA", "AKIDCANARY77", "secretcanary77", "PGPASS77",
                "TOKENCANARY77", "127.0.0.1:41002", "localhost:41004", "127.0.0.1:41001", "host:41003/x")) {
            assertThatThrownBy(() -> guard.check("evidence.json", clean + secret)).as(secret)
                    .isInstanceOfSatisfying(CliException.class, e -> {
                        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
                        assertThat(e.getMessage()).startsWith("refusing to export: evidence.json would contain ")
                                .doesNotContainIgnoringCase(secret);
                    });
        }
        for (String signed : List.of("https://anything", "?X-Amz-Signature=1", "x-amz-credential", "X-Amz-Security-Token",
                "&Signature=z", "AWSAccessKeyId")) {
            assertThatThrownBy(() -> guard.check("index.html", clean + signed)).as(signed)
                    .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.getMessage())
                            .startsWith("refusing to export: index.html would contain "));
        }
    }

    @Test
    void theSelectionPicksWhatWasAskedAndRefusesBadNames() {
        EvidenceSelection all = EvidenceSelection.of(null, null);
        assertThat(all.covers("dataset/a/r1", "dataset")).isTrue();
        assertThat(all.covers("model/m/r1", "model")).isTrue();
        assertThat(all.covers("run/e/r", "run")).isFalse();
        assertThat(all.covers("release/x", "release")).isFalse();

        EvidenceSelection revision = EvidenceSelection.of("a/r1", null);
        assertThat(revision.covers("dataset/a/r1", "dataset")).isTrue();
        assertThat(revision.covers("dataset/a/r10", "dataset")).isFalse();
        assertThat(revision.covers("model/m/r1", "model")).isFalse();

        EvidenceSelection both = EvidenceSelection.of("a", "e/run-1");
        assertThat(both.covers("dataset/a/r2", "dataset")).isTrue();
        assertThat(both.covers("dataset/ab/r2", "dataset")).isFalse();
        assertThat(both.covers("checkpoint/e/run-1/00000050", "checkpoint")).isTrue();
        assertThat(both.covers("checkpoint/e/run-10/00000050", "checkpoint")).isFalse();

        for (String[] bad : List.of(new String[]{"a/b/c", null}, new String[]{"a b", null}, new String[]{null, "e"},
                new String[]{null, "e/r/s"}, new String[]{null, "e/r+1"})) {
            assertThatThrownBy(() -> EvidenceSelection.of(bad[0], bad[1]))
                    .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE));
        }
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
