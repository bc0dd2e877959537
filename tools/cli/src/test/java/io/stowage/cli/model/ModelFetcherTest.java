package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;
import io.stowage.store.ObjectHead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A failed {@code stowage model fetch} leaves the file system as it found it: no file and no directory it created. */
class ModelFetcherTest {
    @TempDir
    Path scratch;

    private final byte[] weights = "weights".getBytes(StandardCharsets.UTF_8);
    private final byte[] vocab = "vocab".getBytes(StandardCharsets.UTF_8);
    private final Map<String, byte[]> objects = new HashMap<>();

    private ModelFetcher.Source store() throws Exception {
        ModelManifest manifest = new ModelManifest(ModelManifest.FORMAT, "en-us", "r1", "BSD-2-Clause", "test", null, null,
                List.of(new MemberEntry("model.bin", weights.length, Sha256.of(weights)),
                        new MemberEntry("vocab.txt", vocab.length, Sha256.of(vocab))));
        objects.put(ObjectKeys.modelManifest("en-us", "r1"), EventCodec.mapper().writeValueAsBytes(manifest));
        objects.put(ObjectKeys.modelFile("en-us", "r1", Sha256.of(weights), "model.bin"), weights);
        objects.put(ObjectKeys.modelFile("en-us", "r1", Sha256.of(vocab), "vocab.txt"), vocab);
        return new ModelFetcher.Source() {
            @Override
            public List<String> list(String prefix) {
                return objects.keySet().stream().filter(k -> k.startsWith(prefix)).sorted().toList();
            }

            @Override
            public Optional<ObjectHead> head(String key) {
                byte[] bytes = objects.get(key);
                return bytes == null ? Optional.empty() : Optional.of(new ObjectHead(bytes.length, Sha256.of(bytes), "e"));
            }

            @Override
            public InputStream open(String key) {
                return new ByteArrayInputStream(objects.get(key));
            }
        };
    }

    @Test
    void aFileThatFailsItsSha256LeavesNeitherFilesNorTheDirectoriesTheFetchCreated() throws Exception {
        ModelFetcher.Source source = store();
        objects.put(ObjectKeys.modelFile("en-us", "r1", Sha256.of(vocab), "vocab.txt"),
                "VOCAB".getBytes(StandardCharsets.UTF_8)); // same size, other bytes
        Path to = scratch.resolve("models/en-us");

        CliException e = catchThrowableOfType(CliException.class, () -> new ModelFetcher(source).fetch("en-us", "r1", to));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).contains("vocab.txt");
        assertThat(scratch.resolve("models")).as("both directories the fetch created are gone").doesNotExist();
        try (Stream<Path> left = Files.list(scratch)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aMissingRevisionCreatesNothing() throws Exception {
        ModelFetcher.Source source = store();
        Path to = scratch.resolve("en-us");

        CliException e = catchThrowableOfType(CliException.class, () -> new ModelFetcher(source).fetch("en-us", "r2", to));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).contains("no model revision");
        assertThat(to).doesNotExist();
    }

    @Test
    void aFailureIntoAnExistingEmptyDirectoryKeepsThatDirectory() throws Exception {
        ModelFetcher.Source source = store();
        objects.put(ObjectKeys.modelFile("en-us", "r1", Sha256.of(weights), "model.bin"), new byte[weights.length]);
        Path to = Files.createDirectory(scratch.resolve("mine"));

        catchThrowableOfType(CliException.class, () -> new ModelFetcher(source).fetch("en-us", "r1", to));

        assertThat(to).as("a directory the user made is not removed").isEmptyDirectory();
    }

    @Test
    void aGoodFetchWritesEveryFile() throws Exception {
        Path to = scratch.resolve("models/en-us");

        ModelFetcher.Fetched fetched = new ModelFetcher(store()).fetch("en-us", "r1", to);

        assertThat(fetched.dir()).isEqualTo(to);
        assertThat(to.resolve("model.bin")).hasBinaryContent(weights);
        assertThat(to.resolve("vocab.txt")).hasBinaryContent(vocab);
    }
}
