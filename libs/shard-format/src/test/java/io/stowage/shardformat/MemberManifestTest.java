package io.stowage.shardformat;

import io.stowage.events.manifest.MemberEntry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class MemberManifestTest {
    private static final String SHA_A = "a".repeat(64);

    @Test
    void readsTheLinesTheShardBuilderWrites() throws IOException {
        // the bytes ShardWriter.jsonLines produces: EventCodec's compact JSON, one object per line, '\n' after each
        String jsonl = "{\"path\":\"a/0001.wav\",\"bytes\":3000,\"sha256\":\"" + SHA_A + "\"}\n"
                + "{\"path\":\"c/naïve café é.flac\",\"bytes\":0,\"sha256\":\"" + "b".repeat(64) + "\"}\n";
        List<MemberEntry> entries = MemberManifest.read(stream(jsonl), "x.members.jsonl");
        assertThat(entries).containsExactly(new MemberEntry("a/0001.wav", 3000, SHA_A),
                new MemberEntry("c/naïve café é.flac", 0, "b".repeat(64)));
    }

    @Test
    void anEmptyManifestHasNoEntries() throws IOException {
        assertThat(MemberManifest.read(stream(""), "empty")).isEmpty();
    }

    @Test
    void namesTheLineOfEachBadEntry() {
        String good = "{\"path\":\"a\",\"bytes\":1,\"sha256\":\"" + SHA_A + "\"}\n";
        assertThat(failure(good + "not json\n").getMessage()).startsWith("m.jsonl line 2: not a member entry: ");
        assertThat(failure(good + "{\"bytes\":1,\"sha256\":\"" + SHA_A + "\"}\n").getMessage()).isEqualTo("m.jsonl line 2: no path");
        assertThat(failure("{\"path\":\"a\",\"bytes\":-1,\"sha256\":\"" + SHA_A + "\"}\n").getMessage())
                .isEqualTo("m.jsonl line 1: negative bytes -1");
        assertThat(failure("{\"path\":\"a\",\"bytes\":1,\"sha256\":\"" + "A".repeat(64) + "\"}\n").getMessage())
                .isEqualTo("m.jsonl line 1: sha256 is not 64 lower-case hex digits");
        assertThat(failure(good + good).getMessage()).isEqualTo("m.jsonl line 2: path a appears twice");
        MemberManifestException notUtf8 = catchThrowableOfType(MemberManifestException.class, () -> MemberManifest.read(
                new ByteArrayInputStream(new byte[]{'{', (byte) 0xe9, '}', '\n'}), "m.jsonl"));
        assertThat(notUtf8.getMessage()).isEqualTo("m.jsonl line 1: not UTF-8");
        assertThat(notUtf8.line()).isEqualTo(1);
    }

    private static MemberManifestException failure(String jsonl) {
        return catchThrowableOfType(MemberManifestException.class, () -> MemberManifest.read(stream(jsonl), "m.jsonl"));
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
