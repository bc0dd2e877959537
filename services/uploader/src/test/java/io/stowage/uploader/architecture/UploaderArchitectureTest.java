package io.stowage.uploader.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.stowage.store.ObjectReader;
import io.stowage.store.s3.S3Clients;
import io.stowage.uploader.storage.ObjectWriters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Consumes the uploader's compiled main classes and fails the build if any of them can delete from the store,
 * reaches past the {@code ObjectWriter} it is given, or breaks the framework-free {@code domain} layer (issue #8).
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
        ArchRule rule = noClasses().should().dependOnClassesThat(deleteType())
                .orShould().accessTargetWhere(deleteMember())
                .because("the uploader writes and never deletes: no Delete* request, no delete*/remove* call (issue #8)");
        rule.check(uploader);
    }

    @Test
    void noClassUsesTheRawS3Client() {
        ArchRule rule = noClasses().should().dependOnClassesThat(
                        resideInAnyPackage("software.amazon.awssdk..").or(belongToAnyOf(S3Clients.class)))
                .because("a raw S3 client can delete; the uploader goes through ObjectWriter");
        rule.check(uploader);
    }

    @Test
    void onlyTheStoragePackageTouchesTheStore() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage("io.stowage.uploader.storage..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stowage.store..")
                .because("store access lives in the storage package (CONVENTIONS.md)");
        rule.check(uploader);
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
                .should(ArchitectureConditions.exposeNoTypeAssignableTo(ObjectReader.class))
                .because("callers of ObjectWriters must only ever hold an ObjectWriter");
        rule.check(uploader);
    }

    @Test
    void domainDependsOnNoFramework() {
        ArchitectureConditions.domainIsFrameworkFree().check(uploader);
    }

    private static DescribedPredicate<JavaClass> deleteType() {
        return DescribedPredicate.describe("a Delete* type of the AWS SDK or a Delet* type of the store", type ->
                type.getPackageName().startsWith("software.amazon.awssdk") && type.getSimpleName().startsWith("Delete")
                        || type.getPackageName().startsWith("io.stowage.store") && type.getSimpleName().contains("Delet"));
    }

    private static DescribedPredicate<JavaAccess<?>> deleteMember() {
        return DescribedPredicate.describe("a delete*/remove* member of the store or the AWS SDK", access -> {
            String owner = access.getTargetOwner().getPackageName();
            String name = access.getTarget().getName();
            boolean storeSide = owner.startsWith("io.stowage.store") || owner.startsWith("software.amazon.awssdk");
            return storeSide && (name.startsWith("delete") || name.startsWith("remove"));
        });
    }
}
