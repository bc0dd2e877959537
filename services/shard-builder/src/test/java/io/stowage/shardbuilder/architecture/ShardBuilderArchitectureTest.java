package io.stowage.shardbuilder.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Consumes the shard-builder's compiled main classes and fails the build if any of them reaches the object store
 * (it holds no store rights, issue #8) or breaks the framework-free {@code domain} layer.
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
        ArchRule rule = noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("io.stowage.store..", "software.amazon.awssdk..")
                .because("the shard-builder has no store access at all: neither the store module nor an S3 client (issue #8)");
        rule.check(classes);
    }

    @Test
    void domainDependsOnNoFramework() {
        ArchitectureConditions.domainIsFrameworkFree().check(classes);
    }
}
