package io.stowage.gatekeeper.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import com.tngtech.archunit.base.DescribedPredicate;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectWriter;
import io.stowage.store.s3.S3ObjectStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Consumes the gatekeeper's compiled main classes and fails the build if any of them can write or delete in the object
 * store (it only HEADs objects at decision time, in its storage package), uses a raw S3 client, or breaks the
 * framework-free {@code domain} layer.
 */
class GatekeeperArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.gatekeeper");
    }

    @Test
    void noClassWritesOrDeletesInTheObjectStore() {
        StoreAccessRules.noWriteOrDelete("gatekeeper", writerOnlyMethods()).check(classes);
    }

    @Test
    void onlyStorageTouchesTheStore() {
        // the gate looks at the stores (HEAD) through the domain's StoreLook; only storage.StoreHeads and the bean
        // producer that builds it from configuration touch the store module
        StoreAccessRules.storeOnlyIn("gatekeeper", "io.stowage.gatekeeper.storage..", "io.stowage.gatekeeper")
                .check(classes);
        StoreAccessRules.storeImplementationOnlyIn("gatekeeper", "io.stowage.gatekeeper.storage..").check(classes);
    }

    @Test
    void noClassUsesTheRawS3Client() {
        StoreAccessRules.noRawS3Client("gatekeeper").check(classes);
    }

    @Test
    void noClassDependsOnTheWriteSideOfTheStore() {
        noClasses().should().dependOnClassesThat(assignableTo(ObjectWriter.class)
                        .and(DescribedPredicate.not(belongToAnyOf(S3ObjectStore.class))))
                .because("the gatekeeper only HEADs: it builds readers, never a writer (least privilege)")
                .check(classes);
    }

    private static Set<String> writerOnlyMethods() {
        Set<String> readerMethods = Arrays.stream(ObjectReader.class.getMethods()).map(Method::getName)
                .collect(Collectors.toSet());
        return Arrays.stream(ObjectWriter.class.getMethods()).map(Method::getName)
                .filter(name -> !readerMethods.contains(name)).collect(Collectors.toUnmodifiableSet());
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(classes);
    }
}
