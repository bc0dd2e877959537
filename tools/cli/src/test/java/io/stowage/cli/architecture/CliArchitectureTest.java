package io.stowage.cli.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.StoreAccessRules;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consumes the compiled main classes of the CLI and of every Stowage library on its class path (events, store,
 * shard-format, prefetch, embedded-stack) and fails when any of them could delete a stored object: only the
 * provider-adapter's retention executor may (its own architecture test names the one class).
 */
class CliArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.stowage");

    @Test
    void theImportHoldsTheCliAndTheStore() {
        // or the rules below would pass on nothing
        assertThat(CLASSES.contain("io.stowage.cli.StowageCli")).isTrue();
        assertThat(CLASSES.contain("io.stowage.store.s3.S3ObjectStore")).isTrue();
    }

    @Test
    void theCliNeverDeletes() {
        StoreAccessRules.noDelete("stowage CLI").check(CLASSES.that(resideInAnyPackage("io.stowage.cli..")));
    }

    @Test
    void noLibraryUsesAnS3DeleteTypeOrCall() {
        // the store module removes its own local upload journal files (UploadJournal.delete): not an object
        DescribedPredicate<JavaAccess<?>> sdkDelete = DescribedPredicate.describe("an AWS SDK member named delete*",
                access -> access.getTargetOwner().getPackageName().startsWith(StoreAccessRules.AWS_SDK)
                        && access.getTarget().getName().startsWith("delete"));
        noClasses().should().dependOnClassesThat(resideInAnyPackage(StoreAccessRules.AWS_SDK + "..")
                        .and(simpleNameStartingWith("Delete")))
                .orShould().accessTargetWhere(sdkDelete)
                .because("only the provider-adapter's retention executor deletes stored objects")
                .check(CLASSES);
    }
}
