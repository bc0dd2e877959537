package io.stowage.provideradapter.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import io.stowage.provideradapter.storage.S3RetentionSources;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Consumes the provider-adapter's compiled main classes and fails the build if any of them reaches the object store
 * outside its storage package and retention's wiring, if any class but the retention executor's
 * {@link S3RetentionSources} deletes, or if the framework-free {@code domain} layer breaks.
 */
class ProviderAdapterArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.provideradapter");
    }

    @Test
    void onlyTheRetentionSourcesDelete() {
        StoreAccessRules.deleteOnlyIn("provider-adapter", S3RetentionSources.class.getName()).check(classes);
    }

    @Test
    void onlyStorageAndRetentionWiringReachTheObjectStore() {
        StoreAccessRules.storeOnlyIn("provider-adapter", "io.stowage.provideradapter.storage..",
                "io.stowage.provideradapter.retention..").check(classes);
        StoreAccessRules.noRawS3Client("provider-adapter").check(classes.that(
                com.tngtech.archunit.base.DescribedPredicate.describe("outside storage",
                        (com.tngtech.archunit.core.domain.JavaClass c) -> !c.getPackageName().endsWith(".storage"))));
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(classes);
    }
}
