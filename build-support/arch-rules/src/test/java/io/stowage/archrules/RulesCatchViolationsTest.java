package io.stowage.archrules;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.stowage.archrules.fixture.deleting.AbortsAnUpload;
import io.stowage.archrules.fixture.deleting.DeletesThroughTheS3Client;
import io.stowage.archrules.fixture.deleting.DeletesWithARequest;
import io.stowage.archrules.fixture.domain.DomainWithKafka;
import io.stowage.archrules.fixture.pure.domain.Tally;
import io.stowage.archrules.fixture.reading.ReadsThroughTheReader;
import io.stowage.archrules.fixture.storage.HoldsTheS3Reader;
import io.stowage.archrules.fixture.writing.WritesThroughTheWriter;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves each shared rule fails on a deliberate violation (fixture classes that delete, write or use a framework
 * type) and passes on a class that stays within its rights, so a service test that passes means something.
 */
class RulesCatchViolationsTest {

    private static JavaClasses classes(Class<?>... types) {
        return new ClassFileImporter().importClasses(types);
    }

    @Test
    void noDeleteReportsACallToDeleteObject() {
        EvaluationResult result = StoreAccessRules.noDelete("uploader").evaluate(classes(DeletesThroughTheS3Client.class));

        assertThat(result.hasViolation()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails()))
                .contains(DeletesThroughTheS3Client.class.getName() + ".forget(")
                .contains("S3Client.deleteObject(");
    }

    @Test
    void noDeleteAcceptsAWriterAndAReader() {
        EvaluationResult result = StoreAccessRules.noDelete("uploader")
                .evaluate(classes(WritesThroughTheWriter.class, ReadsThroughTheReader.class));

        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
    }

    @Test
    void deleteOnlyInReportsEveryDeleterButTheNamedOne() {
        EvaluationResult result = StoreAccessRules.deleteOnlyIn("provider-adapter", DeletesWithARequest.class.getName())
                .evaluate(classes(DeletesWithARequest.class, DeletesThroughTheS3Client.class, ReadsThroughTheReader.class));

        assertThat(result.hasViolation()).isTrue();
        String details = String.join("\n", result.getFailureReport().getDetails());
        assertThat(details).contains(DeletesThroughTheS3Client.class.getName() + ".forget(")
                .doesNotContain(DeletesWithARequest.class.getName() + ".expire(");
    }

    @Test
    void deleteOnlyInReportsAnAbortOfAMultipartUploadOutsideTheNamedClass() {
        EvaluationResult result = StoreAccessRules.deleteOnlyIn("provider-adapter", DeletesWithARequest.class.getName())
                .evaluate(classes(DeletesWithARequest.class, AbortsAnUpload.class));

        assertThat(result.hasViolation()).isTrue();
        String details = String.join("\n", result.getFailureReport().getDetails());
        assertThat(details).contains("AbortMultipartUploadRequest").contains(AbortsAnUpload.class.getName() + ".discard(")
                .doesNotContain(DeletesWithARequest.class.getName() + ".expire(");
    }

    @Test
    void deleteOnlyInAcceptsTheNamedDeleterAndAReader() {
        EvaluationResult result = StoreAccessRules.deleteOnlyIn("provider-adapter", DeletesWithARequest.class.getName())
                .evaluate(classes(DeletesWithARequest.class, ReadsThroughTheReader.class, WritesThroughTheWriter.class));

        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
    }

    @Test
    void deleteOnlyInReportsTheDeleteRequestTypeOutsideTheNamedClass() {
        EvaluationResult result = StoreAccessRules.deleteOnlyIn("provider-adapter", DeletesThroughTheS3Client.class.getName())
                .evaluate(classes(DeletesWithARequest.class));

        assertThat(result.hasViolation()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails())).contains("DeleteObjectRequest");
        assertThatThrownBy(() -> StoreAccessRules.deleteOnlyIn("provider-adapter"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noWriteOrDeleteReportsAPutAndADelete() {
        EvaluationResult result = StoreAccessRules.noWriteOrDelete("verifier", Set.of("abortIncompleteUploads"))
                .evaluate(classes(WritesThroughTheWriter.class, DeletesThroughTheS3Client.class));

        assertThat(result.hasViolation()).isTrue();
        String details = String.join("\n", result.getFailureReport().getDetails());
        assertThat(details).contains("ObjectWriter.put(").contains("S3Client.deleteObject(");
    }

    @Test
    void noWriteOrDeleteAcceptsAReader() {
        EvaluationResult result = StoreAccessRules.noWriteOrDelete("verifier", Set.of("abortIncompleteUploads"))
                .evaluate(classes(ReadsThroughTheReader.class));

        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
    }

    @Test
    void noStoreAccessReportsEvenAReader() {
        EvaluationResult result = StoreAccessRules.noStoreAccess("gatekeeper").evaluate(classes(ReadsThroughTheReader.class));

        assertThat(result.hasViolation()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails())).contains("io.stowage.store.ObjectReader");
    }

    @Test
    void noRawS3ClientReportsTheClientButNotTheInterfaces() {
        assertThat(StoreAccessRules.noRawS3Client("uploader").evaluate(classes(DeletesThroughTheS3Client.class))
                .hasViolation()).isTrue();
        assertThat(StoreAccessRules.noRawS3Client("verifier").evaluate(classes(ReadsThroughTheReader.class))
                .hasViolation()).isFalse();
    }

    @Test
    void storeOnlyInReportsAReaderOutsideTheNamedPackages() {
        EvaluationResult result = StoreAccessRules.storeOnlyIn("uploader", "..fixture.storage..")
                .evaluate(classes(ReadsThroughTheReader.class, HoldsTheS3Reader.class));

        assertThat(result.hasViolation()).isTrue();
        String details = String.join("\n", result.getFailureReport().getDetails());
        assertThat(details).contains(ReadsThroughTheReader.class.getName()).contains("io.stowage.store.ObjectReader")
                .doesNotContain(HoldsTheS3Reader.class.getName());
    }

    @Test
    void storeOnlyInAcceptsTheNamedPackages() {
        // Tally (outside both packages) uses no store type; the two store users are inside
        EvaluationResult result = StoreAccessRules.storeOnlyIn("uploader", "..fixture.storage..", "..fixture.reading..")
                .evaluate(classes(ReadsThroughTheReader.class, HoldsTheS3Reader.class, Tally.class));

        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
    }

    @Test
    void storeImplementationOnlyInReportsTheS3ReaderOutsideStorageButNotTheInterface() {
        EvaluationResult outside = StoreAccessRules.storeImplementationOnlyIn("verifier", "..fixture.reading..")
                .evaluate(classes(HoldsTheS3Reader.class));
        // the reader outside storage holds only the ObjectReader interface
        EvaluationResult inside = StoreAccessRules.storeImplementationOnlyIn("verifier", "..fixture.storage..")
                .evaluate(classes(HoldsTheS3Reader.class, ReadsThroughTheReader.class));

        assertThat(outside.hasViolation()).isTrue();
        assertThat(String.join("\n", outside.getFailureReport().getDetails()))
                .contains("io.stowage.store.s3.S3ObjectReader");
        assertThat(inside.hasViolation()).as(inside.getFailureReport().toString()).isFalse();
    }

    @Test
    void storeRulesRefuseAnEmptyPackageList() {
        assertThatThrownBy(() -> StoreAccessRules.storeOnlyIn("uploader")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StoreAccessRules.storeImplementationOnlyIn("uploader"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void layeringReportsAKafkaTypeInDomain() {
        EvaluationResult bad = LayeringRules.domainIsFrameworkFree().evaluate(classes(DomainWithKafka.class));
        EvaluationResult good = LayeringRules.domainIsFrameworkFree().evaluate(classes(Tally.class));

        assertThat(bad.hasViolation()).isTrue();
        assertThat(String.join("\n", bad.getFailureReport().getDetails())).contains("org.apache.kafka.common.TopicPartition");
        assertThat(good.hasViolation()).isFalse();
    }

    @Test
    void aFactoryReturningTheWriterIsReported() {
        EvaluationResult result = com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods()
                .that().areDeclaredIn(WritesThroughTheWriter.class).and().arePublic()
                .should(ExposedTypes.exposeNoTypeAssignableTo("io.stowage.store.ObjectWriter"))
                .allowEmptyShould(true)
                .evaluate(classes(WritesThroughTheWriter.class));
        // the constructor is not a method; overwrite() takes no writer: nothing exposed
        assertThat(result.hasViolation()).isFalse();

        EvaluationResult constructorTakesIt = com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods()
                .that().areDeclaredIn(ReadsThroughTheReader.class).and().arePublic()
                .should(ExposedTypes.exposeNoTypeAssignableTo("io.stowage.store.ReadResult"))
                .evaluate(classes(ReadsThroughTheReader.class));
        assertThat(constructorTakesIt.hasViolation()).isTrue();
    }
}
