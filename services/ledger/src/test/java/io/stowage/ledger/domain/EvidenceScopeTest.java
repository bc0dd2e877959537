package io.stowage.ledger.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EvidenceScopeTest {

    @Test
    void touchesEqualDescendantAndAncestorRoots() {
        EvidenceScope scope = EvidenceScope.of("/data/speech/");

        assertThat(scope.path()).isEqualTo("/data/speech");
        assertThat(scope.touches("/data/speech")).isTrue();
        assertThat(scope.touches("/data/speech/r1")).isTrue();
        assertThat(scope.touches("/data")).isTrue();
        assertThat(scope.touches("/")).isTrue();
    }

    @Test
    void doesNotTouchSiblingsWithACommonNamePrefix() {
        EvidenceScope scope = EvidenceScope.of("/data/speech");

        assertThat(scope.touches("/data/speech2")).isFalse();
        assertThat(scope.touches("/data/spee")).isFalse();
        assertThat(scope.touches("/other")).isFalse();
        assertThat(scope.touches(null)).isFalse();
    }

    @Test
    void listsAncestorsRootFirst() {
        assertThat(EvidenceScope.of("/a/b/c").ancestors()).containsExactly("/", "/a", "/a/b");
        assertThat(EvidenceScope.of("/").ancestors()).isEmpty();
        assertThat(EvidenceScope.of("/").descendantPrefix()).isEqualTo("/");
        assertThat(EvidenceScope.of("/").touches("/anything/below")).isTrue();
    }

    @Test
    void refusesRelativePaths() {
        assertThatThrownBy(() -> EvidenceScope.of("data/speech")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EvidenceScope.of(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
