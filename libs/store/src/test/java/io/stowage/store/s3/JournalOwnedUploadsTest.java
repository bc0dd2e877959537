package io.stowage.store.s3;

import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreConfig;
import io.stowage.store.UploadObserver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The age-based abort of incomplete multipart uploads against the stack's S3Proxy, tried so that it would abort too
 * much: an old orphan goes, a young upload stays, and an old upload that a journal owns stays however old it is.
 */
@ExtendWith(StowageStackExtension.class)
class JournalOwnedUploadsTest {
    private static StoreConfig config;
    private static S3AsyncClient raw;

    @TempDir
    Path dir;

    @BeforeAll
    static void open(StackEndpoints stack) {
        config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(), stack.primaryBucket(),
                stack.s3AccessKey(), stack.s3SecretKey());
        raw = S3Clients.create(config);
    }

    @AfterAll
    static void close() {
        raw.close();
    }

    @Test
    void anOldOrphanIsAbortedAYoungOneAndAnOldJournaledOneAreKept() {
        String run = "hygiene/" + UUID.randomUUID() + "/";
        String orphan = create(run + "orphan.bin");
        String owned = create(run + "owned.bin");
        Instant created = upload(run + "owned.bin").initiated();
        try (S3ObjectStore store = store(Clock.fixed(created.plus(Duration.ofMinutes(10)), ZoneOffset.UTC))) {
            new UploadJournal(store.journalFile(run + "owned.bin")).start(new JournaledUpload(run + "owned.bin", owned,
                    UploadTuning.MIN_PART_SIZE, 3L * UploadTuning.MIN_PART_SIZE, "ab".repeat(32),
                    created.toEpochMilli(), List.of()));
            store.abortUploadsOlderThan(Duration.ofHours(1));
            assertThat(idsUnder(run)).containsExactlyInAnyOrder(orphan, owned); // both young: kept
        }
        try (S3ObjectStore store = store(Clock.fixed(created.plus(Duration.ofDays(30)), ZoneOffset.UTC))) {
            assertThat(store.abortUploadsOlderThan(Duration.ofHours(1))).isGreaterThanOrEqualTo(1);
            assertThat(idsUnder(run)).containsExactly(owned); // the orphan went; the journaled one stays at 30 days
            assertThat(Files.exists(store.journalFile(run + "owned.bin"))).isTrue();
        }
        try (S3ObjectStore store = store(Clock.fixed(created.plus(Duration.ofDays(30)), ZoneOffset.UTC))) {
            new UploadJournal(store.journalFile(run + "owned.bin")).delete(); // completed or abandoned by its uploader
            store.abortUploadsOlderThan(Duration.ofHours(1));
            assertThat(idsUnder(run)).isEmpty();
        }
    }

    @Test
    void aJournalDirectoryThatCannotBeReadAbortsNothing() throws Exception {
        String run = "hygiene/" + UUID.randomUUID() + "/";
        String orphan = create(run + "orphan.bin");
        Instant created = upload(run + "orphan.bin").initiated();
        Files.createDirectories(dir.resolve("journals-parent"));
        Path unreadable = dir.resolve("journals-parent").resolve("x.journal");
        Files.createDirectories(unreadable); // a "journal" that is a directory cannot be read
        try (S3ObjectStore store = new S3ObjectStore(config, new UploadTuning(UploadTuning.MIN_PART_SIZE,
                UploadTuning.MIN_PART_SIZE, 2), ReadTuning.defaults(), dir.resolve("journals-parent"),
                UploadObserver.NONE, Clock.fixed(created.plus(Duration.ofDays(30)), ZoneOffset.UTC))) {
            assertThatThrownBy(() -> store.abortUploadsOlderThan(Duration.ofHours(1)))
                    .isInstanceOf(java.io.UncheckedIOException.class);
        }
        assertThat(idsUnder(run)).containsExactly(orphan);
        raw.abortMultipartUpload(b -> b.bucket(config.bucket()).key(run + "orphan.bin").uploadId(orphan)).join();
    }

    @Test
    void anOldUploadJournaledByAnotherInstanceIsKeptByTheSweepingInstance() {
        String run = "hygiene/" + UUID.randomUUID() + "/";
        String orphan = create(run + "orphan.bin");
        String theirs = create(run + "theirs.bin");
        Instant created = upload(run + "theirs.bin").initiated();
        Clock late = Clock.fixed(created.plus(Duration.ofDays(30)), ZoneOffset.UTC);
        Path mine = dir.resolve("uploader-1").resolve("journals");
        Path other = dir.resolve("uploader-2").resolve("journals");
        try (S3ObjectStore them = new S3ObjectStore(config, tuning(), ReadTuning.defaults(), other,
                UploadObserver.NONE, late)) {
            new UploadJournal(them.journalFile(run + "theirs.bin")).start(new JournaledUpload(run + "theirs.bin",
                    theirs, UploadTuning.MIN_PART_SIZE, 3L * UploadTuning.MIN_PART_SIZE, "ab".repeat(32),
                    created.toEpochMilli(), List.of()));
        }
        // the sweeping instance knows its peer's journals: only the orphan goes
        try (S3ObjectStore sweeper = new S3ObjectStore(config, tuning(), ReadTuning.defaults(), mine, List.of(other),
                UploadObserver.NONE, late)) {
            assertThat(sweeper.abortUploadsOlderThan(Duration.ofHours(1))).isGreaterThanOrEqualTo(1);
            assertThat(idsUnder(run)).containsExactly(theirs);
        }
        // without the peer's journals the same sweep would take the other instance's resumable upload
        try (S3ObjectStore blind = new S3ObjectStore(config, tuning(), ReadTuning.defaults(), mine,
                UploadObserver.NONE, late)) {
            blind.abortUploadsOlderThan(Duration.ofHours(1));
            assertThat(idsUnder(run)).isEmpty();
        }
        assertThat(orphan).isNotEqualTo(theirs);
    }

    @Test
    void aPeerJournalDirectoryThatCannotBeReadAbortsNothing() throws Exception {
        String run = "hygiene/" + UUID.randomUUID() + "/";
        String orphan = create(run + "orphan.bin");
        Instant created = upload(run + "orphan.bin").initiated();
        Path peer = dir.resolve("peer-journals");
        Files.createDirectories(peer.resolve("x.journal")); // a "journal" that is a directory cannot be read
        try (S3ObjectStore store = new S3ObjectStore(config, tuning(), ReadTuning.defaults(), dir.resolve("journals"),
                List.of(peer), UploadObserver.NONE, Clock.fixed(created.plus(Duration.ofDays(30)), ZoneOffset.UTC))) {
            assertThatThrownBy(() -> store.abortUploadsOlderThan(Duration.ofHours(1)))
                    .isInstanceOf(java.io.UncheckedIOException.class);
        }
        assertThat(idsUnder(run)).containsExactly(orphan);
        raw.abortMultipartUpload(b -> b.bucket(config.bucket()).key(run + "orphan.bin").uploadId(orphan)).join();
    }

    private static UploadTuning tuning() {
        return new UploadTuning(UploadTuning.MIN_PART_SIZE, UploadTuning.MIN_PART_SIZE, 2);
    }

    private S3ObjectStore store(Clock clock) {
        return new S3ObjectStore(config, new UploadTuning(UploadTuning.MIN_PART_SIZE, UploadTuning.MIN_PART_SIZE, 2),
                ReadTuning.defaults(), dir.resolve("journals"), UploadObserver.NONE, clock);
    }

    private static String create(String key) {
        return raw.createMultipartUpload(b -> b.bucket(config.bucket()).key(key)).join().uploadId();
    }

    private static MultipartUpload upload(String key) {
        return raw.listMultipartUploads(b -> b.bucket(config.bucket()).prefix(key)).join().uploads().stream()
                .filter(u -> u.key().equals(key)).findFirst().orElseThrow();
    }

    private static List<String> idsUnder(String prefix) {
        return raw.listMultipartUploads(b -> b.bucket(config.bucket()).prefix(prefix)).join().uploads().stream()
                .map(MultipartUpload::uploadId).toList();
    }
}
