package io.stowage.provideradapter.provider;

import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.ProtectedRoots;
import io.stowage.provideradapter.domain.ReleaseResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Hostile release targets on a real temporary directory: each is refused with a reason, and every
 * entry of the volume and of the "outside" directory (a stand-in for /etc) is still there afterwards.
 */
class HostileTargetsTest {
    static final String ANY = "0".repeat(64);

    @TempDir
    Path tmp;
    Path vol;
    Path data;
    Path outside;
    LocalDiskProvider provider;

    @BeforeEach
    void setUp() throws IOException {
        vol = Files.createDirectories(tmp.resolve("vol"));
        data = Files.createDirectories(vol.resolve("data/speech/a"));
        Files.writeString(data.resolve("1.wav"), "one");
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0");
        provider = new LocalDiskProvider(ProtectedRoots.parse(List.of(vol.toString())));
    }

    /** @return every entry under {@code tmp}, not following links: relative path to type and content or link target */
    Map<String, String> snapshot() throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(tmp)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String what = attrs.isSymbolicLink() ? "link->" + Files.readSymbolicLink(path)
                        : attrs.isRegularFile() ? "file:" + Files.readString(path)
                        : attrs.isDirectory() ? "dir" : "other";
                entries.put(tmp.relativize(path).toString(), what);
            }
        }
        return entries;
    }

    /** Releases {@code target} and asserts it was refused for {@code reason} with nothing on disk changed. */
    void refusedAndUntouched(Path target, String fingerprint, String reason) throws IOException {
        Map<String, String> before = snapshot();

        ReleaseResult result = provider.release(target, fingerprint);

        assertThat(result.released()).as("release of %s", target).isFalse();
        assertThat(result.reason()).contains(reason).endsWith("nothing deleted");
        assertThat(snapshot()).isEqualTo(before);
        assertThat(outside.resolve("passwd")).hasContent("root:x:0:0");
    }

    @Test
    void relativeAndDotDotPathsAreRefused() throws IOException {
        Files.createDirectories(vol.resolve("data/.../x"));
        refusedAndUntouched(Path.of("../"), ANY, "not absolute and normalised");
        refusedAndUntouched(Path.of("a/../../x"), ANY, "not absolute and normalised");
        refusedAndUntouched(Path.of("..././x"), ANY, "not absolute and normalised");
        refusedAndUntouched(vol.resolve("data/speech/../../data"), ANY, "not absolute and normalised");
        refusedAndUntouched(vol.resolve("data/..././x"), ANY, "not absolute and normalised");
        refusedAndUntouched(Path.of(vol + "/data/speech/a/../../../../outside"), ANY, "not absolute and normalised");
    }

    @Test
    void theFilesystemRootIsRefused() throws IOException {
        refusedAndUntouched(Path.of("/"), ANY, "protected root");
    }

    @Test
    void aSymlinkToAnOutsideDirectoryIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(vol.resolve("data/etc"), outside);

        refusedAndUntouched(link, DirectoryFingerprint.of(outside).sha256(), "not a directory");
        refusedAndUntouched(link.resolve("."), DirectoryFingerprint.of(outside).sha256(), "not absolute and normalised");
    }

    @Test
    void aDirectoryBelowASymlinkIsRefused() throws IOException {
        Path sub = Files.createDirectories(outside.resolve("sub"));
        Files.writeString(sub.resolve("shadow"), "s");
        Path link = Files.createSymbolicLink(vol.resolve("data/etc"), outside);

        refusedAndUntouched(link.resolve("sub"), DirectoryFingerprint.of(sub).sha256(), "goes through a symlink");
    }

    @Test
    void aFileTheGateSawReplacedByASymlinkOfTheSameNameIsRefused() throws IOException {
        Path dir = vol.resolve("data/speech");
        String gateSaw = DirectoryFingerprint.of(dir).sha256();
        Files.delete(data.resolve("1.wav"));
        Files.createSymbolicLink(data.resolve("1.wav"), outside.resolve("passwd"));

        refusedAndUntouched(dir, gateSaw, "1 symlink(s)");
    }

    @Test
    void aRegularFileReachedThroughASymlinkOfTheSameNameIsRefused() throws IOException {
        Files.writeString(outside.resolve("1.wav"), "not ours");
        Path link = Files.createSymbolicLink(vol.resolve("data/speech-link"), outside);

        refusedAndUntouched(link.resolve("1.wav"), ANY, "not a directory");
        refusedAndUntouched(data.resolve("1.wav"), ANY, "not a directory");
    }

    @Test
    void aFifoIsRefusedAsTargetAndAsEntry() throws Exception {
        Path fifo = data.resolve("pipe");
        assumeTrue(mkfifo(fifo), "mkfifo is not available on this machine");
        Path dir = vol.resolve("data/speech");

        refusedAndUntouched(fifo, ANY, "not a directory");
        refusedAndUntouched(dir, DirectoryFingerprint.of(dir).sha256(), "1 special file(s)");
    }

    @Test
    void theVolumeRootByAnotherPathIsRefused() throws IOException {
        Path alias = Files.createSymbolicLink(tmp.resolve("vol-alias"), vol);
        LocalDiskProvider configuredThroughALink = new LocalDiskProvider(ProtectedRoots.parse(List.of(alias.toString())));
        Path self = Files.createSymbolicLink(vol.resolve("data/self"), vol);
        Map<String, String> before = snapshot();

        assertThat(configuredThroughALink.release(vol, DirectoryFingerprint.of(vol).sha256()).reason())
                .contains("protected root", "by its real path", "nothing deleted");
        assertThat(configuredThroughALink.release(tmp, DirectoryFingerprint.of(tmp).sha256()).reason())
                .contains("protected root", "nothing deleted");
        assertThat(snapshot()).isEqualTo(before);
        refusedAndUntouched(self, DirectoryFingerprint.of(vol).sha256(), "not a directory");
        refusedAndUntouched(self.resolve("data"), DirectoryFingerprint.of(vol.resolve("data")).sha256(),
                "goes through a symlink");
        refusedAndUntouched(alias, DirectoryFingerprint.of(vol).sha256(), "not a directory");
    }

    static boolean mkfifo(Path path) {
        try {
            Process process = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            return process.waitFor() == 0 && Files.readAttributes(path, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS).isOther();
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
