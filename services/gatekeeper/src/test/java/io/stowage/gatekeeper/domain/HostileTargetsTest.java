package io.stowage.gatekeeper.domain;

import io.stowage.events.ProtectedRoots;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.EvidenceFixture;
import io.stowage.gatekeeper.storage.FileSystemTree;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;

import static io.stowage.gatekeeper.domain.GateEvaluatorTest.codes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The gate on the real disk (a temp dir) against hostile targets, with a fully archived and verified
 * dataset as evidence so that only the target itself can be the reason for the denial, which is named.
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
    Path dataset;
    Path outside;
    AssetEvidence evidence;
    GateEvaluator gate;

    @BeforeEach
    void setUp() throws IOException {
        vol = Files.createDirectories(tmp.resolve("vol"));
        dataset = vol.resolve("data/speech");
        evidence = EvidenceFixture.dataset(DISK, dataset, vol.resolve("staging/speech"),
                Map.of("a/1.wav", "one", "meta.txt", "m"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0");
        gate = new GateEvaluator(ProtectedRoots.parse(List.of(vol.toString())), new FileSystemTree());
    }

    List<String> denial(Path target) {
        return denial(gate, target.toString());
    }

    List<String> denial(GateEvaluator evaluator, String target) {
        GateDecision decision = evaluator.evaluate(target, new ReleaseEvidence(target, List.of(evidence)));
        assertThat(decision.passed()).as("gate for %s", target).isFalse();
        assertThat(decision.failed()).allSatisfy(f -> assertThat(f.detail()).isNotBlank());
        return codes(decision);
    }

    @Test
    void theArchivedDatasetItselfPasses() {
        assertThat(gate.evaluate(dataset.toString(), new ReleaseEvidence(dataset.toString(), List.of(evidence)))
                .failed()).isEmpty();
    }

    @Test
    void relativeAndDotDotPathsAreDeniedAsNotNormalised() throws IOException {
        Files.createDirectories(vol.resolve("data/.../x"));
        for (String target : List.of("../", "a/../../x", "..././x", dataset + "/../speech", vol + "/data/..././x",
                dataset + "/a/../../../../outside")) {
            assertThat(denial(gate, target)).as(target).containsExactly("5:not-normalised");
        }
    }

    @Test
    void theFilesystemRootIsDeniedAsProtected() {
        assertThat(denial(gate, "/")).containsExactly("5:protected-root");
    }

    @Test
    void aSymlinkToAnOutsideDirectoryIsDenied() throws IOException {
        Path link = Files.createSymbolicLink(vol.resolve("data/etc"), outside);
        Files.createDirectories(outside.resolve("sub"));

        assertThat(denial(link)).containsExactly("5:not-a-directory");
        assertThat(denial(link.resolve("sub"))).containsExactly("5:symlink-in-path");
        assertThat(outside.resolve("passwd")).hasContent("root:x:0:0");
    }

    @Test
    void aFileReplacedByASymlinkOfTheSameNameIsDenied() throws IOException {
        Files.delete(dataset.resolve("a/1.wav"));
        Files.createSymbolicLink(dataset.resolve("a/1.wav"), outside.resolve("passwd"));

        List<String> codes = denial(dataset);

        assertThat(codes).contains("5:symlink");
        assertThat(outside.resolve("passwd")).hasContent("root:x:0:0");
    }

    @Test
    void aFifoIsDeniedAsTargetAndAsEntry() throws Exception {
        Path fifo = dataset.resolve("a/pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assumeTrue(mkfifo.waitFor() == 0 && Files.readAttributes(fifo, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isOther(), "mkfifo is not available on this machine");

        assertThat(denial(fifo)).containsExactly("5:not-a-directory");
        assertThat(denial(dataset)).containsExactly("5:special-file");
    }

    @Test
    void theVolumeRootByAnotherPathIsDenied() throws IOException {
        Path alias = Files.createSymbolicLink(tmp.resolve("vol-alias"), vol);
        Path self = Files.createSymbolicLink(vol.resolve("data/self"), vol);
        GateEvaluator configuredThroughALink = new GateEvaluator(ProtectedRoots.parse(List.of(alias.toString())),
                new FileSystemTree());

        assertThat(denial(configuredThroughALink, vol.toString())).containsExactly("5:protected-root");
        assertThat(denial(configuredThroughALink, tmp.toString())).containsExactly("5:protected-root");
        assertThat(denial(self)).containsExactly("5:not-a-directory");
        assertThat(denial(self.resolve("data"))).containsExactly("5:symlink-in-path");
        assertThat(denial(alias)).containsExactly("5:not-a-directory");
        assertThat(dataset.resolve("a/1.wav")).hasContent("one");
    }
}
