package io.stowage.gatekeeper.domain;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProtectedRootsTest {
    final ProtectedRoots roots = ProtectedRoots.parse(List.of("/workspace", " /vol/hot/ ", ""));

    @Test
    void rootRootsAndTheirAncestorsAreProtected() {
        assertThat(roots.protects(Path.of("/"))).isTrue();
        assertThat(roots.protects(Path.of("/workspace"))).isTrue();
        assertThat(roots.protects(Path.of("/vol/hot"))).isTrue();
        assertThat(roots.protects(Path.of("/vol"))).isTrue();
        assertThat(roots.protects(Path.of("/vol/hot/../hot"))).isTrue();
    }

    @Test
    void directoriesBelowARootOrBesideItAreNot() {
        assertThat(roots.protects(Path.of("/vol/hot/datasets/speech"))).isFalse();
        assertThat(roots.protects(Path.of("/workspace/run1"))).isFalse();
        assertThat(roots.protects(Path.of("/vol/hotter"))).isFalse();
    }

    @Test
    void withNoConfiguredRootOnlySlashIsProtected() {
        ProtectedRoots none = ProtectedRoots.parse(List.of());
        assertThat(none.protects(Path.of("/"))).isTrue();
        assertThat(none.protects(Path.of("/tmp"))).isFalse();
    }
}
