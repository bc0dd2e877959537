package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class ProtectedRootsTest {
    final ProtectedRoots roots = ProtectedRoots.parse(List.of("/workspace", " /vol/hot/ ", ""));

    @Test
    void slashTheRootsAndTheirAncestorsAreProtected() {
        assertThat(paths("/", "/workspace", "/vol/hot", "/vol", "/vol/hot/../hot", "/vol/hot/"))
                .allMatch(roots::protects, "protected");
    }

    @Test
    void directoriesBelowARootOrBesideItAreNot() {
        assertThat(paths("/vol/hot/datasets/speech", "/vol/hot/speech", "/workspace/run1", "/vol/hotter", "/tmp"))
                .noneMatch(roots::protects);
    }

    @Test
    void blankEntriesAreSkippedAndTheRestAreNormalised() {
        assertThat(roots.roots()).containsExactly(Path.of("/workspace"), Path.of("/vol/hot"));
        assertThat(new ProtectedRoots(List.of(Path.of("/vol/a/../hot"))).roots()).containsExactly(Path.of("/vol/hot"));
    }

    @Test
    void withNoConfiguredRootOnlySlashIsProtected() {
        ProtectedRoots none = ProtectedRoots.parse(List.of(" "));
        assertThat(none.roots()).isEmpty();
        assertThat(none.protects(Path.of("/"))).isTrue();
        assertThat(none.protects(Path.of("/tmp"))).isFalse();
    }

    private static List<Path> paths(String... paths) {
        return Stream.of(paths).map(Path::of).toList();
    }
}
