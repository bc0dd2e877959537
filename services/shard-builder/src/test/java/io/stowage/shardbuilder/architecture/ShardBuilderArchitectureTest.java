package io.stowage.shardbuilder.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Consumes the shard-builder's compiled main classes and fails the build if any of them reaches the object store
 * (it holds no store rights) or breaks the framework-free {@code domain} layer.
 */
class ShardBuilderArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.shardbuilder");
    }

    @Test
    void noClassReachesTheObjectStore() {
        StoreAccessRules.noStoreAccess("shard-builder").check(classes);
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(classes);
    }
}
