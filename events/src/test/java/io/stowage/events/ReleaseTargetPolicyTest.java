package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReleaseTargetPolicyTest {
    final ReleaseTargetPolicy policy = ReleaseTargetPolicy.of(List.of("/work"), List.of("/vol/hot", " ", "/scratch"),
            "/home/trainer");

    String code(String path) {
        return policy.refusal(Path.of(path)).map(ReleaseTargetPolicy.Refusal::code).orElse("allowed");
    }

    @Test
    void onlyDirectoriesStrictlyUnderAVolumeRootAreAllowed() {
        assertThat(code("/vol/hot/datasets/speech")).isEqualTo("allowed");
        assertThat(code("/scratch/run-1")).isEqualTo("allowed");
        assertThat(code("/vol/hot")).isEqualTo("volume-root");
        assertThat(code("/vol")).isEqualTo("volume-root");
        assertThat(code("/vol/hotter/x")).isEqualTo("outside-volume-roots");
        assertThat(code("/opt/data")).isEqualTo("outside-volume-roots");
    }

    @Test
    void rootWorkspaceAndHomesAreRefusedWithTheirAncestors() {
        assertThat(code("/")).isEqualTo("protected-root");
        assertThat(code("/work")).isEqualTo("protected-root");
        assertThat(code("/root")).isEqualTo("home-directory");
        assertThat(code("/home")).isEqualTo("home-directory");
        assertThat(code("/home/alice")).isEqualTo("home-directory");
        assertThat(code("/home/trainer")).isEqualTo("home-directory");
    }

    @Test
    void pathsThatAreNotAbsoluteAndNormalisedAreRefused() {
        for (String path : List.of("../", "a/../../x", "..././x", "/vol/hot/a/../../x", "/vol/hot/./a")) {
            assertThat(code(path)).as(path).isEqualTo("not-normalised");
        }
        assertThat(code("/vol/hot/.../x")).as("'...' is an ordinary name").isEqualTo("allowed");
    }

    @Test
    void withoutVolumeRootsEverythingIsRefused() {
        ReleaseTargetPolicy none = ReleaseTargetPolicy.of(List.of(), List.of(), null);
        assertThat(none.refusal(Path.of("/vol/hot/x"))).get().extracting(ReleaseTargetPolicy.Refusal::code)
                .isEqualTo("outside-volume-roots");
    }

    @Test
    void aliasesAddTheRealPathOfEachRoot() {
        ReleaseTargetPolicy aliased = policy.withAliases(root -> root.equals(Path.of("/vol/hot"))
                ? Optional.of(Path.of("/mnt/disk1/hot")) : Optional.empty());
        assertThat(aliased.refusal(Path.of("/mnt/disk1/hot"))).get().extracting(ReleaseTargetPolicy.Refusal::code)
                .isEqualTo("volume-root");
        assertThat(aliased.refusal(Path.of("/mnt/disk1/hot/run"))).isEmpty();
    }
}
