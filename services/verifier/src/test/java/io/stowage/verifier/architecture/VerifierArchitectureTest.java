package io.stowage.verifier.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.stowage.archrules.ExposedTypes;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import io.stowage.store.ObjectReader;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PutResult;
import io.stowage.store.SourceChangedException;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.verifier.storage.ObjectReaders;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Consumes the verifier's compiled main classes and fails the build if any of them reaches past the
 * read-only store interface ({@link ObjectReader}), uses a store type outside {@code storage} (adapters, the only
 * users of the S3 implementation) and {@code app} (orchestration, store interfaces only), or breaks the
 * framework-free {@code domain} layer.
 * The shared rules live in {@code arch-rules/}, whose own test proves each one fails on a deliberate violation.
 */
class VerifierArchitectureTest {

    private static JavaClasses verifier;

    @BeforeAll
    static void importVerifier() {
        verifier = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.verifier");
    }

    @Test
    void noClassDependsOnTheWriteSideOfTheStore() {
        ArchRule rule = noClasses().should().dependOnClassesThat(
                        assignableTo(ObjectWriter.class).and(DescribedPredicate.not(belongToAnyOf(S3ObjectStore.class)))
                                .or(belongToAnyOf(PutResult.class, SourceChangedException.class)))
                .because("the verifier only reads: it receives ObjectReader, never a writer (least privilege)");
        rule.check(verifier);
    }

    @Test
    void noClassCallsAWriteOrDeleteMethodOfTheStore() {
        StoreAccessRules.noWriteOrDelete("verifier", writerOnlyMethods()).check(verifier);
    }

    @Test
    void onlyStorageAndAppTouchTheStore() {
        // domain, messaging and ledgerclient use no store type at all
        StoreAccessRules.storeOnlyIn("verifier", "io.stowage.verifier.storage..", "io.stowage.verifier.app..")
                .check(verifier);
    }

    @Test
    void onlyStorageTouchesTheS3Implementation() {
        StoreAccessRules.storeImplementationOnlyIn("verifier", "io.stowage.verifier.storage..").check(verifier);
    }

    @Test
    void onlyObjectReadersTouchesTheConcreteStore() {
        ArchRule rule = noClasses().that().doNotBelongToAnyOf(ObjectReaders.class)
                .should().dependOnClassesThat().resideInAnyPackage("io.stowage.store.s3..")
                .because("ObjectReaders builds the S3 stores and hands out ObjectReader and UrlSigner only");
        rule.check(verifier);
    }

    @Test
    void noClassUsesTheRawS3Client() {
        StoreAccessRules.noRawS3Client("verifier").check(verifier);
    }

    @Test
    void objectReadersHandsOutNoWriter() {
        ArchRule rule = methods().that().areDeclaredIn(ObjectReaders.class).and().arePublic()
                .should(ExposedTypes.exposeNoTypeAssignableTo(ObjectWriter.class.getName()))
                .because("callers of ObjectReaders must only ever hold an ObjectReader");
        rule.check(verifier);
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(verifier);
    }

    /** @return the methods an {@link ObjectWriter} has beyond what an {@link ObjectReader} offers (put, abort…) */
    private static Set<String> writerOnlyMethods() {
        Set<String> readerMethods = Arrays.stream(ObjectReader.class.getMethods()).map(Method::getName)
                .collect(Collectors.toSet());
        return Arrays.stream(ObjectWriter.class.getMethods()).map(Method::getName)
                .filter(name -> !readerMethods.contains(name)).collect(Collectors.toUnmodifiableSet());
    }
}
