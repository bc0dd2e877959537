package io.stowage.uploader.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.events.ObjectKeys;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** The storage root manifest's content and the start-up decision, without a store. */
class StorageRootManifestTest {
    private static final String SHA = "0".repeat(64);

    @Test
    void isJsonNamingEveryKeyPrefixThatObjectKeysForms() throws Exception {
        JsonNode root = new ObjectMapper().readTree(StorageRootManifest.bytes());
        assertThat(root.get("format").asText()).isEqualTo("stowage-storage-root/1");
        JsonNode layout = root.get("layout");
        assertThat(layout.get("datasets").asText()).contains(ObjectKeys.shard("d", "r", SHA).replace("d/r/", "<dataset>/<revision>/")
                .replace(SHA, "<sha256>"));
        assertThat(layout.get("checkpoints").asText()).startsWith("checkpoints/<experiment>/<run>/");
        assertThat(layout.get("models").asText()).isEqualTo(ObjectKeys.modelFile("m", "v", SHA, "f")
                .replace("m/v/", "<model>/<revision>/").replace(SHA, "<sha256>").replace("/f", "/<filename>"));
        assertThat(layout.get("archives").asText()).isEqualTo(ObjectKeys.baselineArchive("m", "x", SHA)
                .replace("m/x/", "<model>/<milestone>/").replace(SHA, "<sha256>"));
        assertThat(layout.get("ledger").asText()).startsWith("ledger/archives/");
        assertThat(layout.get("manifests").asText()).isEqualTo(ObjectKeys.ROOT_MANIFEST);
        assertThat(root.at("/policy/shardBytes/min").asLong()).isEqualTo(1L << 30);
        assertThat(root.at("/policy/shardBytes/max").asLong()).isEqualTo(4L << 30);
        assertThat(root.at("/keys/maxKeyBytes").asInt()).isEqualTo(ObjectKeys.MAX_KEY_BYTES);
    }

    @Test
    void holdsNoCredentialNameNorTime() {
        String text = new String(StorageRootManifest.bytes(), StandardCharsets.UTF_8).toLowerCase();
        assertThat(text).doesNotContain("secret", "password", "access-key", "accesskey", "token", "endpoint", "http");
        assertThat(text).doesNotContainPattern("20\\d\\d-\\d\\d-\\d\\d");
    }

    @Test
    void decidesPutMatchOrMismatchFromLengthAndSha256() throws Exception {
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(StorageRootManifest.bytes()));
        int length = StorageRootManifest.bytes().length;
        assertThat(StorageRootManifest.sha256()).isEqualTo(sha);
        assertThat(StorageRootManifest.decide(-1, null)).isEqualTo(StorageRootManifest.Action.PUT);
        assertThat(StorageRootManifest.decide(length, sha.toUpperCase())).isEqualTo(StorageRootManifest.Action.MATCHES);
        assertThat(StorageRootManifest.decide(length - 1, sha)).isEqualTo(StorageRootManifest.Action.MISMATCH);
        assertThat(StorageRootManifest.decide(length, SHA)).isEqualTo(StorageRootManifest.Action.MISMATCH);
    }
}
