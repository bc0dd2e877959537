package io.stowage.uploader.storage;

import io.stowage.events.ObjectKind;
import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PutResult;
import io.stowage.store.SourceChangedException;
import io.stowage.store.TransientStoreException;
import io.stowage.uploader.domain.UploadOutcome;
import io.stowage.uploader.domain.UploadTask;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** How each store answer becomes an outcome; the store itself is exercised by the conformance suite and the service test. */
class TaskRunnerTest {
    static final String SHA = "a".repeat(64);
    final UploadTask task = new UploadTask("primary", "datasets/d/r/shards/" + SHA + ".tar.zst", ObjectKind.SHARD,
            Path.of("/staging/s0.tar.zst"), 100, SHA);

    @Test
    void theSameSha256AlreadyAtTheKeyIsSkippedWithoutAPut() {
        ScriptedWriter writer = new ScriptedWriter(Optional.of(new ObjectHead(100, SHA, "e1")), null);
        assertThat(TaskRunner.run(task, writer)).isEqualTo(new UploadOutcome.Stored("e1", true));
        assertThat(writer.puts).isEmpty();
    }

    @Test
    void otherContentAtTheKeyIsOverwrittenWithTheFile() {
        ScriptedWriter writer = new ScriptedWriter(Optional.of(new ObjectHead(100, "b".repeat(64), "e0")),
                () -> new PutResult("e2", 100, SHA, false));
        assertThat(TaskRunner.run(task, writer)).isEqualTo(new UploadOutcome.Stored("e2", false));
        assertThat(writer.puts).containsExactly(task.key());
    }

    @Test
    void aDatasetManifestIsNeverOverwrittenWithOtherContent() {
        UploadTask manifest = new UploadTask("primary", "datasets/d/r/manifest.json", ObjectKind.DATASET_MANIFEST,
                Path.of("/staging/datasets/d/r/manifest.json"), 100, SHA);
        for (ObjectHead stored : List.of(new ObjectHead(100, "b".repeat(64), "e0"), new ObjectHead(90, SHA, "e0"),
                new ObjectHead(100, null, "e0"))) {
            ScriptedWriter writer = new ScriptedWriter(Optional.of(stored), () -> new PutResult("e2", 100, SHA, false));
            assertThat(TaskRunner.run(manifest, writer)).isInstanceOfSatisfying(UploadOutcome.Failed.class, f -> {
                assertThat(f.permanent()).isTrue();
                assertThat(f.reason()).isEqualTo("datasets/d/r/manifest.json already holds another dataset manifest"
                        + " (sha256 " + stored.sha256() + ", " + stored.bytes() + " bytes): a sealed revision never"
                        + " changes, so /staging/datasets/d/r/manifest.json (sha256 " + SHA + ") is not stored");
            });
            assertThat(writer.puts).isEmpty();
        }
        ScriptedWriter same = new ScriptedWriter(Optional.of(new ObjectHead(100, SHA, "e1")), null);
        assertThat(TaskRunner.run(manifest, same)).isEqualTo(new UploadOutcome.Stored("e1", true));
    }

    @Test
    void aModelManifestIsNeverOverwrittenWithOtherContent() {
        UploadTask manifest = new UploadTask("primary", "models/en-us/r1/manifest.json", ObjectKind.MODEL_MANIFEST,
                Path.of("/staging/models/en-us/r1/m.json"), 100, SHA);
        ScriptedWriter other = new ScriptedWriter(Optional.of(new ObjectHead(100, "b".repeat(64), "e0")),
                () -> new PutResult("e2", 100, SHA, false));
        assertThat(TaskRunner.run(manifest, other)).isInstanceOfSatisfying(UploadOutcome.Failed.class, f -> {
            assertThat(f.permanent()).isTrue();
            assertThat(f.reason()).isEqualTo("models/en-us/r1/manifest.json already holds another model manifest"
                    + " (sha256 " + "b".repeat(64) + ", 100 bytes): a published model revision never changes, so"
                    + " /staging/models/en-us/r1/m.json (sha256 " + SHA + ") is not stored");
        });
        assertThat(other.puts).isEmpty();
        ScriptedWriter same = new ScriptedWriter(Optional.of(new ObjectHead(100, SHA, "e1")), null);
        assertThat(TaskRunner.run(manifest, same)).isEqualTo(new UploadOutcome.Stored("e1", true));
    }

    @Test
    void anUnreachableStoreIsATransientFailure() {
        ScriptedWriter writer = new ScriptedWriter(Optional.empty(), () -> {
            throw new TransientStoreException("PUT primary: connection refused", null);
        });
        UploadOutcome outcome = TaskRunner.run(task, writer);
        assertThat(outcome).isInstanceOfSatisfying(UploadOutcome.Failed.class, f -> {
            assertThat(f.permanent()).isFalse();
            assertThat(f.reason()).contains("/staging/s0.tar.zst", "connection refused");
        });
    }

    @Test
    void aChangedFileIsAPermanentFailureNamingBothDigests() {
        String actual = "c".repeat(64);
        ScriptedWriter writer = new ScriptedWriter(Optional.empty(), () -> {
            throw new SourceChangedException("/staging/s0.tar.zst", 100, SHA, 100, actual);
        });
        UploadOutcome outcome = TaskRunner.run(task, writer);
        assertThat(outcome).isInstanceOfSatisfying(UploadOutcome.Failed.class, f -> {
            assertThat(f.permanent()).isTrue();
            assertThat(f.reason()).isEqualTo("/staging/s0.tar.zst changed since publish: expected 100 bytes sha256 "
                    + SHA + ", found 100 bytes sha256 " + actual);
        });
    }

    @Test
    void aSmallNewFileIsOneCreateOnlyPutWithoutAHead() {
        ScriptedWriter writer = new ScriptedWriter(Optional.empty(), () -> new PutResult("e2", 100, SHA, false), null);
        assertThat(TaskRunner.run(task, writer, true, () -> { })).isEqualTo(new UploadOutcome.Stored("e2", false));
        assertThat(writer.calls).containsExactly("PUT if absent");
    }

    @Test
    void aSmallFileAlreadyStoredIsSkippedOnceTheCreateOnlyPutIsRefused() {
        ScriptedWriter writer = new ScriptedWriter(Optional.of(new ObjectHead(100, SHA, "e1")),
                () -> new PutResult("e2", 100, SHA, false), new io.stowage.store.PreconditionFailedException("412", null));
        assertThat(TaskRunner.run(task, writer, true, () -> { })).isEqualTo(new UploadOutcome.Stored("e1", true));
        assertThat(writer.calls).containsExactly("PUT if absent", "HEAD");
    }

    @Test
    void otherContentFoundByARefusedCreateOnlyPutIsOverwrittenAsWithTheHeadFirst() {
        ScriptedWriter writer = new ScriptedWriter(Optional.of(new ObjectHead(100, "b".repeat(64), "e0")),
                () -> new PutResult("e2", 100, SHA, false), new io.stowage.store.PreconditionFailedException("412", null));
        assertThat(TaskRunner.run(task, writer, true, () -> { })).isEqualTo(new UploadOutcome.Stored("e2", false));
        assertThat(writer.calls).containsExactly("PUT if absent", "HEAD", "PUT");
    }

    @Test
    void aManifestWithOtherContentFoundByARefusedCreateOnlyPutIsNeverOverwritten() {
        UploadTask manifest = new UploadTask("primary", "datasets/d/r/manifest.json", ObjectKind.DATASET_MANIFEST,
                Path.of("/staging/datasets/d/r/manifest.json"), 100, SHA);
        ScriptedWriter writer = new ScriptedWriter(Optional.of(new ObjectHead(100, "b".repeat(64), "e0")),
                () -> new PutResult("e2", 100, SHA, false), new io.stowage.store.PreconditionFailedException("412", null));
        assertThat(TaskRunner.run(manifest, writer, true, () -> { })).isInstanceOfSatisfying(UploadOutcome.Failed.class,
                f -> assertThat(f.permanent()).isTrue());
        assertThat(writer.calls).containsExactly("PUT if absent", "HEAD");
    }

    @Test
    void aLocalFileGoneOrChangedIsNoFailureWhenItsObjectIsAlreadyStored() {
        // a promoted model revision names objects already stored, not local files: the HEAD decides, as with it first
        for (RuntimeException unreadable : List.of(
                new java.io.UncheckedIOException(new java.nio.file.NoSuchFileException("/staging/s0.tar.zst")),
                new SourceChangedException("/staging/s0.tar.zst", 100, SHA, 90, "c".repeat(64)))) {
            ScriptedWriter writer = new ScriptedWriter(Optional.of(new ObjectHead(100, SHA, "e1")),
                    () -> new PutResult("e2", 100, SHA, false), unreadable);
            assertThat(TaskRunner.run(task, writer, true, () -> { })).isEqualTo(new UploadOutcome.Stored("e1", true));
            assertThat(writer.calls).containsExactly("PUT if absent", "HEAD");
        }
    }

    @Test
    void aLocalFileGoneWhoseObjectIsNotStoredFailsAsWithTheHeadFirst() {
        ScriptedWriter writer = new ScriptedWriter(Optional.empty(), () -> {
            throw new java.io.UncheckedIOException(new java.nio.file.NoSuchFileException("/staging/s0.tar.zst"));
        }, new java.io.UncheckedIOException(new java.nio.file.NoSuchFileException("/staging/s0.tar.zst")));
        assertThat(TaskRunner.run(task, writer, true, () -> { })).isInstanceOfSatisfying(UploadOutcome.Failed.class,
                f -> {
                    assertThat(f.permanent()).isTrue();
                    assertThat(f.reason()).startsWith("/staging/s0.tar.zst cannot be read");
                });
        assertThat(writer.calls).containsExactly("PUT if absent", "HEAD", "PUT");
    }

    @Test
    void aStoreWithoutConditionalWritesIsRememberedAndGetsTheHeadFirst() {
        ScriptedWriter writer = new ScriptedWriter(Optional.empty(), () -> new PutResult("e2", 100, SHA, false),
                new UnsupportedOperationException("HTTP 501 NotImplemented"));
        java.util.concurrent.atomic.AtomicBoolean remembered = new java.util.concurrent.atomic.AtomicBoolean();
        assertThat(TaskRunner.run(task, writer, true, () -> remembered.set(true)))
                .isEqualTo(new UploadOutcome.Stored("e2", false));
        assertThat(remembered).isTrue();
        assertThat(writer.calls).containsExactly("PUT if absent", "HEAD", "PUT");
    }

    /**
     * A writer whose answers are given up front; it records every request, and a create-only PUT fails with
     * {@code refusal} when one is given.
     */
    static final class ScriptedWriter implements ObjectWriter {
        final Optional<ObjectHead> head;
        final Supplier<PutResult> put;
        final RuntimeException refusal;
        final List<String> puts = new ArrayList<>();
        final List<String> calls = new ArrayList<>();

        ScriptedWriter(Optional<ObjectHead> head, Supplier<PutResult> put) {
            this(head, put, null);
        }

        ScriptedWriter(Optional<ObjectHead> head, Supplier<PutResult> put, RuntimeException refusal) {
            this.head = head;
            this.put = put;
            this.refusal = refusal;
        }

        @Override
        public String storeName() {
            return "primary";
        }

        @Override
        public String bucket() {
            return "stowage-primary";
        }

        @Override
        public PutResult put(String key, Path file, long bytes, String sha256, Map<String, String> metadata) {
            puts.add(key);
            calls.add("PUT");
            return put.get();
        }

        @Override
        public PutResult putIfUnchanged(String key, Path file, long bytes, String sha256, Map<String, String> metadata,
                                        String expectedEtag) {
            puts.add(key);
            calls.add(expectedEtag == null ? "PUT if absent" : "PUT if ETag " + expectedEtag);
            if (refusal != null) {
                throw refusal;
            }
            return put.get();
        }

        @Override
        public Optional<ObjectHead> head(String key) {
            calls.add("HEAD");
            return head;
        }

        @Override
        public int abortIncompleteUploads(String key) {
            return 0;
        }

        @Override
        public int abortUploadsOlderThan(java.time.Duration age) {
            return 0;
        }
    }
}
