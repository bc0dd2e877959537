package io.stowage.provideradapter.domain;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProtectedRootsTest {
    @Test
    void slashRootsAndAncestorsAreProtectedButNotWhatLiesBelow() {
        ProtectedRoots roots = ProtectedRoots.parse(List.of("/vol/hot", " "));

        assertThat(roots.protects(Path.of("/"))).isTrue();
        assertThat(roots.protects(Path.of("/vol/hot"))).isTrue();
        assertThat(roots.protects(Path.of("/vol"))).isTrue();
        assertThat(roots.protects(Path.of("/vol/hot/speech"))).isFalse();
        assertThat(roots.protects(Path.of("/vol/hotter"))).isFalse();
    }
}
