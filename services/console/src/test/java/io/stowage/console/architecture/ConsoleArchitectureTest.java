package io.stowage.console.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Consumes the console's compiled main classes and fails the build if any of them reaches the object store, Kafka or a
 * database (the console reads only the services' HTTP APIs), or breaks the framework-free {@code domain} layer.
 */
class ConsoleArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.console");
    }

    @Test
    void noClassReachesTheObjectStore() {
        StoreAccessRules.noStoreAccess("console").check(classes);
    }

    @Test
    void noClassReachesKafkaOrADatabase() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "io.vertx.sqlclient..",
                "io.vertx.mutiny.sqlclient..", "org.hibernate..", "java.sql..", "io.smallrye.reactive.messaging..")
                .because("the console reads only the services' HTTP APIs").check(classes);
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(classes);
    }
}
