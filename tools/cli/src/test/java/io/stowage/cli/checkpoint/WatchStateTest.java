package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WatchStateTest {
    @TempDir
    Path home;

    @Test
    void recordedStepsSurviveAReloadAndTheFileIsReplacedWhole() throws Exception {
        Path file = WatchState.fileFor(home.resolve("state"), "exp", "run-1");
        assertThat(file).isEqualTo(home.resolve("state/watch-exp-run-1.json"));
        WatchState state = WatchState.load(file, "exp", "run-1");
        assertThat(state.published()).isEmpty();

        state.record(20);
        state.record(10);

        assertThat(Files.readString(file)).isEqualTo("{\"experiment\":\"exp\",\"run\":\"run-1\",\"published\":[10,20]}");
        assertThat(WatchState.load(file, "exp", "run-1").published()).containsExactly(10L, 20L);
        try (var left = Files.list(file.getParent())) {
            assertThat(left).containsExactly(file);
        }
    }

    @Test
    void aCorruptStateFileFailsInsteadOfRepublishingEverything() throws Exception {
        Path file = Files.createDirectories(home.resolve("state")).resolve("watch-exp-r.json");
        Files.writeString(file, "{\"published\":[1,");
        assertThatThrownBy(() -> WatchState.load(file, "exp", "r")).isInstanceOf(CliException.class)
                .hasMessageContaining("cannot read watch state " + file);
    }

    @Test
    void anotherRunWhoseNamesGiveTheSameFileNameIsRefusedNotMerged() {
        Path file = WatchState.fileFor(home.resolve("state"), "a-b", "c");
        assertThat(WatchState.fileFor(home.resolve("state"), "a", "b-c")).isEqualTo(file);
        WatchState.load(file, "a-b", "c").record(7);
        assertThatThrownBy(() -> WatchState.load(file, "a", "b-c")).isInstanceOf(CliException.class)
                .hasMessage("watch state " + file + " belongs to a-b/c, not a/b-c");
        assertThat(WatchState.load(file, "a-b", "c").published()).containsExactly(7L);
    }
}
