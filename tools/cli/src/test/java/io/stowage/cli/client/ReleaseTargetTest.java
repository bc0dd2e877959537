package io.stowage.cli.client;

import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link ReleaseRequester#target}: a release path whose {@code ..} follows a real symlink is refused, naming where it
 * leads and what its text reads as; {@code stowage release} refuses it with exit 2 before reading its session, and
 * nothing is released or deleted.
 */
class ReleaseTargetTest {
    @TempDir
    Path tmp;

    /** {@code a/link -> b/inner}: {@code a/link/../step} reads as {@code a/step} but leads to {@code b/step}. */
    private Path linkedTree() throws Exception {
        Files.writeString(Files.createDirectories(tmp.resolve("a/step")).resolve("named.bin"), "a");
        Files.writeString(Files.createDirectories(tmp.resolve("b/step")).resolve("reached.bin"), "b");
        Files.createDirectories(tmp.resolve("b/inner"));
        Files.createSymbolicLink(tmp.resolve("a/link"), tmp.resolve("b/inner"));
        return tmp.resolve("a/link/../step");
    }

    @Test
    void aDotDotAfterASymlinkIsRefusedNamingBothPaths() throws Exception {
        Path dotted = linkedTree();

        CliException e = catchThrowableOfType(CliException.class, () -> ReleaseRequester.target(dotted));

        assertThat(e.exitCode()).isEqualTo(CliException.USAGE);
        assertThat(e.getMessage()).isEqualTo("refusing " + dotted + ": it leads to " + tmp.resolve("b/step").toRealPath()
                + " but reads as " + tmp.resolve("a/step") + " (a symlink before '..'); name the directory without '..'");
    }

    @Test
    void aDotDotWithoutASymlinkAndAPathWithoutDotDotAreNormalised() throws Exception {
        linkedTree();
        Files.createDirectories(tmp.resolve("a/plain"));

        assertThat(ReleaseRequester.target(tmp.resolve("a/plain/../step"))).isEqualTo(tmp.resolve("a/step"));
        assertThat(ReleaseRequester.target(tmp.resolve("a/./step"))).isEqualTo(tmp.resolve("a/step"));
        assertThat(ReleaseRequester.target(tmp.resolve("a/link/x"))).as("the gate refuses it: symlink-in-path")
                .isEqualTo(tmp.resolve("a/link/x"));
        assertThat(catchThrowableOfType(CliException.class, () -> ReleaseRequester.target(tmp.resolve("a/gone/../step")))
                .getMessage()).startsWith("refusing " + tmp.resolve("a/gone/../step") + ": it cannot be resolved");
    }

    @Test
    void releaseAndItsDryRunRefuseItWithExit2AndReleaseNothing() throws Exception {
        Path dotted = linkedTree();

        for (String[] args : new String[][] {{"release", dotted.toString()}, {"release", "--dry-run", dotted.toString()}}) {
            CliRun.Result result = CliRun.runWithHome(tmp.resolve("no-session"), args);

            assertThat(result.exit()).isEqualTo(CliException.USAGE);
            assertThat(result.err()).isEqualTo("stowage: refusing " + dotted + ": it leads to "
                    + tmp.resolve("b/step").toRealPath() + " but reads as " + tmp.resolve("a/step")
                    + " (a symlink before '..'); name the directory without '..'\n");
        }
        assertThat(tmp.resolve("a/step/named.bin")).hasContent("a");
        assertThat(tmp.resolve("b/step/reached.bin")).hasContent("b");
        assertThat(tmp.resolve("no-session")).doesNotExist();
    }
}
