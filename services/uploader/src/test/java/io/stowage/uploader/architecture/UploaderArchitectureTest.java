package io.stowage.uploader.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.stowage.archrules.ExposedTypes;
import io.stowage.archrules.LayeringRules;
import io.stowage.archrules.StoreAccessRules;
import io.stowage.store.ObjectReader;
import io.stowage.uploader.storage.ObjectWriters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Consumes the uploader's compiled main classes and fails the build if any of them can delete from the store,
 * reaches past the {@code ObjectWriter} it is given, uses a store type outside {@code storage} (adapters, the only
 * users of the S3 implementation) and {@code app} (orchestration, store interfaces only), or breaks the
 * framework-free {@code domain} layer.
 * The shared rules live in {@code arch-rules/}, whose own test proves each one fails on a deliberate violation.
 */
class UploaderArchitectureTest {

    private static JavaClasses uploader;

    @BeforeAll
    static void importUploader() {
        uploader = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stowage.uploader");
    }

    @Test
    void noClassCanDelete() {
        StoreAccessRules.noDelete("uploader").check(uploader);
    }

    @Test
    void noClassUsesTheRawS3Client() {
        StoreAccessRules.noRawS3Client("uploader").check(uploader);
    }

    @Test
    void onlyStorageAndAppTouchTheStore() {
        // domain, messaging and persistence use no store type at all
        StoreAccessRules.storeOnlyIn("uploader", "io.stowage.uploader.storage..", "io.stowage.uploader.app..")
                .check(uploader);
    }

    @Test
    void onlyStorageTouchesTheS3Implementation() {
        StoreAccessRules.storeImplementationOnlyIn("uploader", "io.stowage.uploader.storage..").check(uploader);
    }

    @Test
    void onlyObjectWritersTouchesTheConcreteStore() {
        ArchRule rule = noClasses().that().doNotBelongToAnyOf(ObjectWriters.class)
                .should().dependOnClassesThat().resideInAnyPackage("io.stowage.store.s3..")
                .because("ObjectWriters builds the S3 stores and hands out ObjectWriter only");
        rule.check(uploader);
    }

    @Test
    void objectWritersHandsOutOnlyAWriter() {
        // S3ObjectStore is an ObjectReader too, so this also forbids handing out the concrete store.
        ArchRule rule = methods().that().areDeclaredIn(ObjectWriters.class).and().arePublic()
                .should(ExposedTypes.exposeNoTypeAssignableTo(ObjectReader.class.getName()))
                .because("callers of ObjectWriters must only ever hold an ObjectWriter");
        rule.check(uploader);
    }

    @Test
    void domainDependsOnNoFramework() {
        LayeringRules.domainIsFrameworkFree().check(uploader);
    }
}
