package io.stowage.gatekeeper.domain;

import io.stowage.events.ConditionResult;
import io.stowage.events.ReleaseTargetPolicy;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import io.stowage.gatekeeper.storage.FileSystemTree;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.stowage.gatekeeper.domain.GateEvaluatorTest.codes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The gate on the real disk (a temp dir) against hostile targets, with a fully archived and verified
 * dataset as evidence so that only the target itself can be the reason for the denial, which is named;
 * after each, the whole temp tree (types, paths, bytes, SHA-256) and /etc/passwd are as before.
 */
class HostileTargetsTest {
    static final EvidenceFixture.Disk DISK = (path, bytes) -> {
        try {
            Files.createDirectories(path.getParent());
            Files.write(path, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @TempDir
    Path tmp;
    Path vol;
    Path workspace;
    Path dataset;
    Path outside;
    AssetEvidence evidence;
    GateEvaluator gate;
    Map<String, String> before;
    String passwd;

    @BeforeEach
    void setUp() throws IOException {
        vol = Files.createDirectories(tmp.resolve("vol"));
        workspace = Files.createDirectories(tmp.resolve("ws"));
        dataset = vol.resolve("data/speech");
        evidence = EvidenceFixture.dataset(DISK, dataset, vol.resolve("staging/speech"),
                Map.of("a/1.wav", "one", "meta.txt", "m"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0");
        gate = new GateEvaluator(policy(vol.toString()), new FileSystemTree(), TestStore.holdingEverything());
        passwd = TreeSnapshot.fileDigest(Path.of("/etc/passwd"));
    }

    ReleaseTargetPolicy policy(String volumeRoot) {
        return ReleaseTargetPolicy.of(List.of(workspace.toString()), List.of(volumeRoot), tmp.resolve("home").toString());
    }

    /** Takes the snapshot once the hostile set-up is in place; @AfterEach compares. */
    void armed() throws IOException {
        before = TreeSnapshot.of(tmp);
    }

    @AfterEach
    void nothingWasTouched() throws IOException {
        if (before != null) {
            assertThat(TreeSnapshot.of(tmp)).as("the temp tree after the gate").isEqualTo(before);
        }
        assertThat(TreeSnapshot.fileDigest(Path.of("/etc/passwd"))).isEqualTo(passwd);
    }

    List<String> denial(Path target) {
        return denial(gate, target.toString());
    }

    List<String> denial(GateEvaluator evaluator, String target) {
        GateDecision decision = evaluator.evaluate(target, new ReleaseEvidence(target, List.of(evidence)));
        assertThat(decision.passed()).as("gate for %s", target).isFalse();
        assertThat(decision.failed()).allSatisfy(f -> assertThat(f.detail()).isNotBlank());
        assertThat(decision.conditions()).hasSize(5);
        assertThat(decision.conditions().get(4)).extracting(ConditionResult::passed).isEqualTo(false);
        return codes(decision);
    }

    @Test
    void theArchivedDatasetItselfPasses() throws IOException {
        armed();
        GateDecision decision = gate.evaluate(dataset.toString(), new ReleaseEvidence(dataset.toString(), List.of(evidence)));
        assertThat(decision.failed()).isEmpty();
        assertThat(decision.inventory().entries()).extracting(e -> e.path() + ":" + e.bytes())
                .containsExactly("a/1.wav:3", "meta.txt:1");
    }

    @Test
    void dotDotUp() throws IOException {
        armed();
        assertThat(denial(gate, "../")).containsExactly("5:not-normalised");
        assertThat(denial(gate, dataset + "/../speech")).containsExactly("5:not-normalised");
    }

    @Test
    void theFilesystemRoot() throws IOException {
        armed();
        assertThat(denial(gate, "/")).containsExactly("5:protected-root");
    }

    @Test
    void aDotDotThatClimbsOutOfTheVolume() throws IOException {
        armed();
        assertThat(denial(gate, "a/../../x")).containsExactly("5:not-normalised");
        assertThat(denial(gate, dataset + "/a/../../../../outside")).containsExactly("5:not-normalised");
    }

    @Test
    void threeDotsThenDotIsNotNormalised() throws IOException {
        Files.createDirectories(vol.resolve("data/.../x"));
        armed();
        assertThat(denial(gate, "..././x")).containsExactly("5:not-normalised");
        assertThat(denial(gate, vol + "/data/..././x")).containsExactly("5:not-normalised");
    }

    @Test
    void aSymlinkToEtc() throws IOException {
        Path link = Files.createSymbolicLink(vol.resolve("data/etc"), Path.of("/etc"));
        armed();
        assertThat(denial(link)).containsExactly("5:not-a-directory");
        assertThat(denial(link.resolve("ssl"))).containsExactly("5:symlink-in-path");
    }

    @Test
    void aSymlinkInsideTheTargetAndThenARegularFileOfTheSameName() throws IOException {
        Files.delete(dataset.resolve("a/1.wav"));
        Files.createSymbolicLink(dataset.resolve("a/1.wav"), outside.resolve("passwd"));
        armed();
        assertThat(denial(dataset)).contains("5:symlink");

        // the target itself a symlink to a directory, then swapped for a regular file of the same name
        Path swapped = Files.createSymbolicLink(vol.resolve("data/swapped"), dataset);
        assertThat(denial(swapped)).containsExactly("5:not-a-directory");
        Files.delete(swapped);
        Files.writeString(swapped, "now a file");
        assertThat(denial(swapped)).containsExactly("5:not-a-directory");
        Files.delete(swapped);
    }

    @Test
    void aFifoAsTargetAndAsEntry() throws Exception {
        Path fifo = dataset.resolve("a/pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assumeTrue(mkfifo.waitFor() == 0 && Files.readAttributes(fifo, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isOther(), "mkfifo is not available on this machine");
        armed();
        assertThat(denial(fifo)).containsExactly("5:not-a-directory");
        assertThat(denial(dataset)).containsExactly("5:special-file");
    }

    @Test
    void aFifoSwappedInForAListedFileIsDeniedNotWaitedOn() throws Exception {
        Path meta = dataset.resolve("meta.txt");
        FileSystemTree disk = new FileSystemTree(Duration.ofMillis(500));
        List<LocalTree.Entry> listedBefore = disk.list(dataset);
        Files.delete(meta);
        Process mkfifo = new ProcessBuilder("mkfifo", meta.toString()).redirectErrorStream(true).start();
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo is not available on this machine");
        armed();
        LocalTree listedThenSwapped = new LocalTree() { // the listing taken before the swap, the rest on the disk now
            @Override
            public List<Entry> list(Path dir) {
                return listedBefore;
            }

            @Override
            public EntryType typeOf(Path path) {
                return disk.typeOf(path);
            }

            @Override
            public Path realPath(Path path) throws IOException {
                return disk.realPath(path);
            }

            @Override
            public String fingerprint(Path dir) throws IOException {
                return disk.fingerprint(dir);
            }

            @Override
            public byte[] read(Path file) throws IOException {
                return disk.read(file);
            }

            @Override
            public String sha256(Path file) throws IOException {
                return disk.sha256(file);
            }
        };
        GateEvaluator swapped = new GateEvaluator(policy(vol.toString()), listedThenSwapped, TestStore.holdingEverything());

        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(20), () -> denial(swapped, dataset.toString())))
                .containsExactly("5:special-file");
    }

    @Test
    void theVolumeRootByAnotherPath() throws IOException {
        Path alias = Files.createSymbolicLink(tmp.resolve("vol-alias"), vol);
        Path parentLoop = Files.createSymbolicLink(vol.resolve("data/up"), tmp);
        armed();
        GateEvaluator configuredThroughALink = new GateEvaluator(policy(alias.toString()), new FileSystemTree(), TestStore.holdingEverything());

        assertThat(denial(configuredThroughALink, vol.toString())).containsExactly("5:volume-root");
        assertThat(denial(configuredThroughALink, tmp.toString())).containsExactly("5:protected-root");
        assertThat(denial(parentLoop.resolve("vol"))).containsExactly("5:symlink-in-path");
        assertThat(denial(alias)).containsExactly("5:outside-volume-roots");
        assertThat(denial(vol)).containsExactly("5:volume-root");
    }

    @Test
    void rootsHomesAndPathsOutsideTheVolumes() throws IOException {
        Files.createDirectories(tmp.resolve("home"));
        armed();
        assertThat(denial(workspace)).containsExactly("5:protected-root");
        assertThat(denial(tmp.resolve("home"))).containsExactly("5:home-directory");
        assertThat(denial(gate, "/root")).containsExactly("5:home-directory");
        assertThat(denial(gate, "/home/alice")).containsExactly("5:home-directory");
        assertThat(denial(gate, "/home")).containsExactly("5:home-directory");
        assertThat(denial(outside)).containsExactly("5:outside-volume-roots");
        GateEvaluator noVolumes = new GateEvaluator(ReleaseTargetPolicy.of(List.of(), List.of(), null), new FileSystemTree(), TestStore.holdingEverything());
        assertThat(denial(noVolumes, dataset.toString())).containsExactly("5:outside-volume-roots");
    }
}
