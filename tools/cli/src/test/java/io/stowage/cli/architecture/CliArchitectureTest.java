package io.stowage.cli.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.StoreAccessRules;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consumes the compiled main classes of the CLI and of every Stowage library on its class path (events, store,
 * shard-format, prefetch, embedded-stack) and fails when any of them could delete a stored object: only the
 * provider-adapter's retention executor may (its own architecture test names the one class).
 */
class CliArchitectureTest {

    @Test
    void neitherTheCliNorTheLibrariesItShipsDelete() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage");
        // the import must really hold the CLI and the store, or the rule would pass on nothing
        assertThat(classes.contain("io.stowage.cli.StowageCli")).isTrue();
        assertThat(classes.contain("io.stowage.store.s3.S3ObjectStore")).isTrue();

        StoreAccessRules.noDelete("stowage CLI").check(classes);
    }
}
