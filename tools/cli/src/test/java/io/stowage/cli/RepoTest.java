package io.stowage.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The checkout is found from where the command was packaged too, so that the jar runs from any directory. */
class RepoTest {

    @Test
    void theCheckoutTheCommandWasBuiltInIsFoundFromItsOwnLocation() {
        Path packagedIn = Repo.packagedIn();

        assertThat(packagedIn).isNotNull();
        assertThat(packagedIn.resolve("tools/cli/src/main/java/io/stowage/cli/Repo.java")).isRegularFile();
        assertThat(Files.isDirectory(packagedIn.resolve("services/ledger"))).isTrue();
        assertThat(Repo.root()).as("the working directory (tools/cli) finds the same checkout").isEqualTo(packagedIn);
    }
}
