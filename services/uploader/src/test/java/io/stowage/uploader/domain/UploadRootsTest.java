package io.stowage.uploader.domain;

import io.stowage.events.ArchivePublished;
import io.stowage.events.CheckpointPublished;
import io.stowage.events.DatasetSealed;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKind;
import io.stowage.events.Provenance;
import io.stowage.events.ShardBuilt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link UploadRoots} on real directories: every way a forged path tries to leave the roots, and what stays legal. */
class UploadRootsTest {
    private static final String SHA = "a".repeat(64);

    @TempDir
    Path tmp;
    Path staging;
    Path volume;
    UploadRoots roots;

    @BeforeEach
    void roots() throws IOException {
        staging = Files.createDirectories(tmp.resolve("staging"));
        volume = Files.createDirectories(tmp.resolve("hot"));
        roots = new UploadRoots(List.of(staging, volume));
    }

    @Test
    void aFileUnderARootPassesAndSoDoesOneNotWrittenYet() throws IOException {
        Path shard = Files.write(Files.createDirectories(staging.resolve("shards")).resolve("s.tar.zst"), new byte[]{1});
        assertThat(roots.problem(shard.toString())).isEmpty();
        assertThat(roots.problem(volume.resolve("run/step-1/model.pt").toString())).isEmpty();
    }

    @Test
    void pathsOutsideTheRootsAreRefusedNamingThem() {
        for (String path : List.of("/etc/passwd", "/run/secrets/stowage/stowage.store.primary.secret-access-key",
                tmp.resolve("other/x").toString(), tmp.resolve("staging2/x").toString(), staging.toString(), "/")) {
            assertThat(roots.problem(path)).as(path).hasValueSatisfying(reason -> assertThat(reason)
                    .isEqualTo("local path " + path + " is outside the upload roots " + List.of(staging, volume)));
        }
    }

    @Test
    void dotSegmentsRelativePathsAndNulsAreRefusedEvenWhenTheyWouldNormaliseInside() {
        assertThat(roots.problem(staging + "/../../../etc/passwd")).hasValueSatisfying(r -> assertThat(r).endsWith("has a .. segment"));
        assertThat(roots.problem(staging + "/shards/../s.tar.zst")).hasValueSatisfying(r -> assertThat(r).endsWith("has a .. segment"));
        assertThat(roots.problem(staging + "/./s.tar.zst")).hasValueSatisfying(r -> assertThat(r).endsWith("has a . segment"));
        assertThat(roots.problem("staging/s.tar.zst")).hasValueSatisfying(r -> assertThat(r).endsWith("is not absolute"));
        assertThat(roots.problem(staging + "/s\0/etc/passwd")).hasValueSatisfying(r -> assertThat(r).contains("holds a NUL"));
        assertThat(roots.problem("")).contains("no local path given");
        assertThat(roots.problem(null)).contains("no local path given");
    }

    @Test
    void aSymlinkThatResolvesOutsideARootIsRefused() throws IOException {
        Path outside = Files.write(Files.createDirectories(tmp.resolve("secrets")).resolve("key"), new byte[]{7});
        Path fileLink = Files.createSymbolicLink(staging.resolve("innocent.tar.zst"), outside);
        Path dirLink = Files.createSymbolicLink(volume.resolve("run"), outside.getParent());
        Path dangling = Files.createSymbolicLink(volume.resolve("gone"), tmp.resolve("nowhere/x"));

        for (Path path : List.of(fileLink, dirLink.resolve("key"), dirLink.resolve("not-yet-there"), dangling)) {
            assertThat(roots.problem(path.toString())).as(path.toString()).hasValueSatisfying(reason -> assertThat(reason)
                    .isEqualTo("local path " + path + " resolves through a symlink to outside the upload roots "
                            + List.of(staging, volume)));
        }
        assertThat(roots.problem(Files.createSymbolicLink(staging.resolve("ok"), Path.of("/etc/passwd")).toString()))
                .isPresent();
    }

    @Test
    void aSymlinkFromOneRootIntoAnotherPasses() throws IOException {
        Path target = Files.write(Files.createDirectories(volume.resolve("data")).resolve("a.bin"), new byte[]{1});
        Path link = Files.createSymbolicLink(staging.resolve("a.bin"), target);
        assertThat(roots.problem(link.toString())).isEmpty();
    }

    @Test
    void aRootThatIsItselfASymlinkIsComparedByItsRealPath() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real-staging"));
        Path linked = Files.createSymbolicLink(tmp.resolve("linked-staging"), real);
        Path file = Files.write(linked.resolve("s.tar.zst"), new byte[]{1});
        assertThat(new UploadRoots(List.of(linked)).problem(file.toString())).isEmpty();
    }

    @Test
    void withoutRootsEveryPathIsRefused() throws IOException {
        Path file = Files.write(staging.resolve("s.tar.zst"), new byte[]{1});
        assertThat(new UploadRoots(List.of()).problem(file.toString())).contains("local path " + file
                + " refused: the uploader has no upload roots configured (stowage.uploader.roots)");
        assertThat(new UploadRoots(List.of(Path.of("relative"))).problem(file.toString())).isPresent();
    }

    @Test
    void everyLocalPathOfEveryUploadedEventIsChecked() {
        EventMeta meta = EventMeta.first("flow", Clock.systemUTC());
        String good = staging.resolve("a").toString();
        Provenance provenance = new Provenance("abc", "c".repeat(64), "d".repeat(64));
        assertRefused(CheckpointPublished.of(meta, "e", "r", 1, good, "/etc/passwd", SHA, 1, 1, false, List.of(), provenance),
                "manifestPath: local path /etc/passwd is outside");
        assertRefused(CheckpointPublished.of(meta, "e", "r", 1, "/etc", good, SHA, 1, 1, false, List.of(), provenance),
                "stepDir: local path /etc is outside");
        assertRefused(ShardBuilt.of(meta, "d", "r", 0, "/data", good, 1, SHA, "/etc/passwd", 1, SHA, 1, 1),
                "membersPath: local path /etc/passwd is outside");
        assertRefused(DatasetSealed.of(meta, "d", "r", "/data", "/run/secrets/x", 1, SHA, 1, 1, 1, "CC0", null),
                "manifestPath: local path /run/secrets/x is outside");
        assertRefused(ArchivePublished.of(meta, "run/e/r", "/etc/shadow", 1, SHA, 1, 1, 1, SHA),
                "archivePath: local path /etc/shadow is outside");
    }

    @Test
    void everyTaskFileIsChecked() {
        UploadTask inside = new UploadTask(UploadTask.PRIMARY, "k1", ObjectKind.CHECKPOINT_FILE, staging.resolve("a"), 1, SHA);
        UploadTask outside = new UploadTask(UploadTask.PRIMARY, "k2", ObjectKind.CHECKPOINT_FILE, Path.of("/etc/passwd"), 1, SHA);
        roots.requireConfined(List.of(inside));
        assertThatThrownBy(() -> roots.requireConfined(List.of(inside, outside)))
                .isInstanceOf(PlanRefusedException.class)
                .hasMessage("local path /etc/passwd is outside the upload roots " + List.of(staging, volume))
                .extracting(e -> ((PlanRefusedException) e).localPath()).isEqualTo("/etc/passwd");
    }

    private void assertRefused(io.stowage.events.StowageEvent event, String message) {
        assertThatThrownBy(() -> roots.requireConfined(event)).isInstanceOf(PlanRefusedException.class)
                .hasMessageStartingWith(message);
    }
}
