package io.stowage.prefetch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The prefetch cache only reads the store: through {@code ObjectReader}, never a writer, the S3 classes or the SDK. */
class PrefetchArchitectureTest {
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.stowage.prefetch");

    @Test
    void readsTheStoreOnlyThroughObjectReader() {
        noClasses().that().resideInAPackage("io.stowage.prefetch..")
                .should().dependOnClassesThat().resideInAnyPackage("software.amazon..", "io.stowage.store.s3..")
                .orShould().dependOnClassesThat().haveSimpleName("ObjectWriter")
                .orShould().dependOnClassesThat().haveSimpleName("RetryingObjectWriter")
                .check(classes);
    }
}
