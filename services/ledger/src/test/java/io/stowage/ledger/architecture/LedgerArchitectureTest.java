package io.stowage.ledger.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Consumes the ledger's compiled main classes and fails the build if any of them reaches the object store
 * (it holds no store rights) or breaks the framework-free {@code domain} layer.
 */
class LedgerArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.ledger");
    }

    @Test
    void noClassReachesTheObjectStore() {
        StoreAccessRules.noStoreAccess("ledger").check(classes);
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(classes);
    }
}
