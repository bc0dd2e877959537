package io.stowage.shardformat.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * Consumes the shard-format module's compiled main classes and fails the build when one of them depends on anything
 * but the JDK, Commons Compress, zstd-jni, Jackson and the {@code events} contract: the reader and the writer
 * ({@code write}) are pure Java, usable by a training process, the CLI, a benchmark and the shard-builder service alike,
 * and they never reach the object store or a framework.
 */
class ShardFormatArchitectureTest {

    @Test
    void dependsOnlyOnTheJdkTheCodecsAndTheEventContract() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.shardformat");
        classes().should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.stowage.shardformat..",
                        "io.stowage.events..", "org.apache.commons.compress..", "com.github.luben.zstd..",
                        "com.fasterxml.jackson..")
                .because("the shard format, both sides, is pure Java: no framework, no store client")
                .check(main);
    }
}
