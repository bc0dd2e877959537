package io.stowage.stack;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compose stack's MinIO policies (compose/minio/policies) parse as IAM JSON and grant what each service
 * needs and nothing more, checked with a small evaluator of their Allow statements (actions and ARNs with {@code *}):
 * the uploader may put every kind of key {@link ObjectKeys} makes but never delete; the verifier may only read and list.
 * MinIO itself cannot run here (no Docker): this checks the files, not MinIO's enforcement.
 */
class MinioPolicyFilesTest {
    private static final String SHA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    private static final List<String> EVERY_KIND_OF_KEY = List.of(
            ObjectKeys.shard("d", "r1", SHA), ObjectKeys.members("d", "r1", SHA), ObjectKeys.datasetManifest("d", "r1"),
            ObjectKeys.modelFile("m", "r1", SHA, "weights.bin"), ObjectKeys.checkpointFile("e", "run", 7, SHA, "model.pt"),
            ObjectKeys.checkpointLatest("e", "run"), ObjectKeys.baselineArchive("m", "v1", SHA),
            ObjectKeys.ledgerArchive("run/e/run", SHA), ObjectKeys.ROOT_MANIFEST);

    private static Policy policy(String name) throws Exception {
        Path file = KafkaAclTable.locate().getParent().getParent().resolve("minio/policies/" + name + ".json");
        JsonNode root = EventCodec.mapper().readTree(Files.readString(file));
        assertThat(root.path("Version").asText()).isEqualTo("2012-10-17");
        List<Statement> statements = new ArrayList<>();
        for (JsonNode s : root.path("Statement")) {
            assertThat(s.path("Effect").asText()).as(name + " uses Allow statements only").isEqualTo("Allow");
            statements.add(new Statement(texts(s.path("Action")), texts(s.path("Resource"))));
        }
        assertThat(statements).isNotEmpty();
        return new Policy(statements);
    }

    @Test
    void theUploaderMayPutEveryKindOfKeyInThePrimaryStore() throws Exception {
        Policy uploader = policy("stowage-uploader");

        for (String key : EVERY_KIND_OF_KEY) {
            assertThat(uploader.allows("s3:PutObject", "arn:aws:s3:::stowage-primary/" + key)).as(key).isTrue();
            assertThat(uploader.allows("s3:AbortMultipartUpload", "arn:aws:s3:::stowage-primary/" + key)).as(key).isTrue();
            assertThat(uploader.allows("s3:GetObject", "arn:aws:s3:::stowage-primary/" + key)).as("HEAD " + key).isTrue();
        }
        assertThat(uploader.allows("s3:PutObject", "arn:aws:s3:::stowage-replica/" + ObjectKeys.checkpointFile("e", "run", 7, SHA, "m.pt"))).isTrue();
        assertThat(uploader.allows("s3:ListBucketMultipartUploads", "arn:aws:s3:::stowage-primary")).isTrue();
    }

    @Test
    void theUploaderCanNeitherDeleteNorWriteOutsideItsPrefixes() throws Exception {
        Policy uploader = policy("stowage-uploader");

        for (String key : EVERY_KIND_OF_KEY) {
            assertThat(uploader.allows("s3:DeleteObject", "arn:aws:s3:::stowage-primary/" + key)).as(key).isFalse();
            assertThat(uploader.allows("s3:DeleteObjectVersion", "arn:aws:s3:::stowage-primary/" + key)).as(key).isFalse();
        }
        assertThat(uploader.allows("s3:PutObject", "arn:aws:s3:::stowage-primary/elsewhere/x")).isFalse();
        assertThat(uploader.allows("s3:PutObject", "arn:aws:s3:::another-bucket/models/x")).isFalse();
        assertThat(uploader.allows("s3:DeleteBucket", "arn:aws:s3:::stowage-primary")).isFalse();
        assertThat(uploader.allows("s3:PutBucketPolicy", "arn:aws:s3:::stowage-primary")).isFalse();
        assertThat(uploader.actions()).allMatch(a -> !a.contains("*") && !a.startsWith("s3:Delete") && !a.startsWith("admin:"));
    }

    @Test
    void theVerifierMayOnlyReadAndList() throws Exception {
        Policy verifier = policy("stowage-verifier");

        for (String key : EVERY_KIND_OF_KEY) {
            assertThat(verifier.allows("s3:GetObject", "arn:aws:s3:::stowage-primary/" + key)).as(key).isTrue();
            assertThat(verifier.allows("s3:GetObject", "arn:aws:s3:::stowage-replica/" + key)).as(key).isTrue();
            assertThat(verifier.allows("s3:PutObject", "arn:aws:s3:::stowage-primary/" + key)).as(key).isFalse();
            assertThat(verifier.allows("s3:DeleteObject", "arn:aws:s3:::stowage-primary/" + key)).as(key).isFalse();
        }
        assertThat(verifier.allows("s3:ListBucket", "arn:aws:s3:::stowage-primary")).isTrue();
        assertThat(verifier.actions()).allMatch(a -> a.startsWith("s3:Get") || a.startsWith("s3:List"));
    }

    @Test
    void onlyRetentionMayDeleteAndOnlyUnderCheckpoints() throws Exception {
        Policy retention = policy("stowage-retention");

        for (String key : EVERY_KIND_OF_KEY) {
            boolean checkpoint = key.startsWith("checkpoints/");
            for (String bucket : List.of("stowage-primary", "stowage-replica")) {
                assertThat(retention.allows("s3:DeleteObject", "arn:aws:s3:::" + bucket + "/" + key)).as(key).isEqualTo(checkpoint);
                assertThat(retention.allows("s3:GetObject", "arn:aws:s3:::" + bucket + "/" + key)).as(key).isEqualTo(checkpoint);
                assertThat(retention.allows("s3:PutObject", "arn:aws:s3:::" + bucket + "/" + key)).as(key).isFalse();
            }
        }
        assertThat(retention.allows("s3:DeleteObject", "arn:aws:s3:::another-bucket/checkpoints/e/r/x")).isFalse();
        assertThat(retention.allows("s3:DeleteBucket", "arn:aws:s3:::stowage-primary")).isFalse();
        assertThat(retention.actions()).containsExactlyInAnyOrder("s3:GetObject", "s3:DeleteObject");
    }

    @Test
    void noOtherServiceHasAPolicy() throws Exception {
        Path dir = KafkaAclTable.locate().getParent().getParent().resolve("minio/policies");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
                    .containsExactly("stowage-retention.json", "stowage-uploader.json", "stowage-verifier.json");
        }
    }

    private record Statement(List<String> actions, List<String> resources) {
    }

    private record Policy(List<Statement> statements) {
        boolean allows(String action, String arn) {
            return statements.stream().anyMatch(s -> s.actions().stream().anyMatch(a -> glob(a).matcher(action).matches())
                    && s.resources().stream().anyMatch(r -> glob(r).matcher(arn).matches()));
        }

        List<String> actions() {
            return statements.stream().flatMap(s -> s.actions().stream()).toList();
        }
    }

    /** IAM matching: {@code *} any characters, {@code ?} one; everything else literal. */
    private static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString());
    }

    private static List<String> texts(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(n -> out.add(n.asText()));
        } else if (!node.isMissingNode()) {
            out.add(node.asText());
        }
        return out;
    }
}
