package io.stowage.archrules;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Produces the least-privilege store rules (each service holds only the store rights its job needs) that the
 * services' architecture tests apply to their own
 * compiled classes: no store at all (shard-builder, ledger), no delete (uploader, the CLI), no write and
 * no delete (verifier, gatekeeper), deletes in one named class only (the provider-adapter's retention executor), and no raw S3
 * client elsewhere. Consumes package and method names only, so it needs
 * neither the store module nor the AWS SDK on the class path.
 */
public final class StoreAccessRules {

    /** Our store module. */
    public static final String STORE = "io.stowage.store";
    /** The store module's S3 implementation ({@code S3ObjectStore}, {@code S3ObjectReader}, their tunings). */
    public static final String STORE_S3 = STORE + ".s3";
    /** The AWS SDK v2 (every S3 client and request type). */
    public static final String AWS_SDK = "software.amazon.awssdk";
    /** Name prefixes of members that remove objects or uploads. */
    static final List<String> DELETE_VERBS = List.of("delete", "remove");
    /**
     * Name prefixes of members that remove objects or end incomplete multipart uploads (their parts are gone); the
     * one deleter's rule forbids both, since only the uploader, which owns the upload journals, may abort.
     */
    static final List<String> DESTRUCTIVE_VERBS = List.of("delete", "remove", "abort");
    /** Name prefixes of members that create, change or remove objects or uploads. */
    static final List<String> WRITE_VERBS = List.of("delete", "remove", "put", "copy", "abort", "upload",
            "completeMultipart", "createMultipart", "restore", "write");

    private StoreAccessRules() {
    }

    /**
     * @param service the service's name, for the failure message
     * @return "no class depends on the store module or the AWS SDK"
     */
    public static ArchRule noStoreAccess(String service) {
        return noClasses().should().dependOnClassesThat().resideInAnyPackage(STORE + "..", AWS_SDK + "..")
                .because("the " + service + " has no store access at all: neither the store module nor an S3 client (least privilege)");
    }

    /**
     * @param service the service's name, for the failure message
     * @return "no class uses a Delete* type nor calls a delete*&#47;remove* member of the store module or the AWS SDK"
     */
    public static ArchRule noDelete(String service) {
        return noClasses().should().dependOnClassesThat(deleteType())
                .orShould().accessTargetWhere(storeMemberNamed(DELETE_VERBS, Set.of()))
                .because("the " + service + " never deletes: no Delete* request, no delete*/remove* call (least privilege)");
    }

    /**
     * @param service          the service's name, for the failure message
     * @param writerOnlyNames  member names that only a writing interface has (e.g. the methods of the store's
     *                         {@code ObjectWriter} that {@code ObjectReader} lacks); checked besides {@link #WRITE_VERBS}
     * @return "no class uses a Delete* type nor calls a write or delete member of the store module or the AWS SDK"
     */
    public static ArchRule noWriteOrDelete(String service, Set<String> writerOnlyNames) {
        return noClasses().should().dependOnClassesThat(deleteType())
                .orShould().accessTargetWhere(storeMemberNamed(WRITE_VERBS, writerOnlyNames))
                .because("the " + service + " only reads: no write, abort or delete call on the store (least privilege)");
    }

    /**
     * @param service the service's name, for the failure message
     * @param except  fully qualified names of store classes that wrap a raw client and may still be used (none usually)
     * @return "no class depends on the AWS SDK or on the store's client factory {@code S3Clients}"
     */
    public static ArchRule noRawS3Client(String service, String... except) {
        Set<String> allowed = Set.of(except);
        return noClasses().should().dependOnClassesThat(DescribedPredicate.describe(
                        "a type of the AWS SDK or the store's S3Clients", (JavaClass type) ->
                                !allowed.contains(type.getName())
                                        && (type.getPackageName().startsWith(AWS_SDK)
                                        || type.getName().equals(STORE + ".s3.S3Clients"))))
                .because("a raw S3 client can write and delete; the " + service + " goes through its narrow store interface");
    }

    /**
     * @param service  the service's name, for the failure message
     * @param packages ArchUnit package identifiers (e.g. {@code io.stowage.uploader.storage..}) whose classes may
     *                 use the store module; at least one
     * @return "no class outside {@code packages} depends on the store module" (its interfaces, results or S3
     *         implementation); pair it with {@link #storeImplementationOnlyIn} to narrow the S3 implementation further
     * @throws IllegalArgumentException when no package is given (the rule would then allow nobody by accident)
     */
    public static ArchRule storeOnlyIn(String service, String... packages) {
        requireSome(packages);
        return noClasses().that().resideOutsideOfPackages(packages)
                .should().dependOnClassesThat().resideInAnyPackage(STORE + "..")
                .because("in the " + service + " only " + String.join(", ", packages)
                        + " talk to the store; domain and messaging never do");
    }

    /**
     * @param service  the service's name, for the failure message
     * @param packages ArchUnit package identifiers whose classes may use the store's S3 implementation
     *                 ({@value #STORE_S3}); at least one
     * @return "no class outside {@code packages} depends on the store's S3 implementation"
     * @throws IllegalArgumentException when no package is given
     */
    public static ArchRule storeImplementationOnlyIn(String service, String... packages) {
        requireSome(packages);
        return noClasses().that().resideOutsideOfPackages(packages)
                .should().dependOnClassesThat().resideInAnyPackage(STORE_S3 + "..")
                .because("in the " + service + " only " + String.join(", ", packages)
                        + " build the S3 stores; everything else holds the narrow store interface");
    }

    /**
     * The one deleter: in the one service that may delete stored objects (the provider-adapter, for retention), only
     * the named classes may use a Delete* type of the AWS SDK or the store, or call a delete*&#47;remove* member of
     * either. Aborting a multipart upload counts as deleting here (an {@code AbortMultipartUpload*} type, an
     * {@code abort*} member): it destroys the uploaded parts, and whether an upload is still owned is known only to the
     * uploader's journals. Every other service applies {@link #noDelete}, {@link #noWriteOrDelete} or
     * {@link #noStoreAccess}.
     *
     * @param service the service's name, for the failure message
     * @param classes fully qualified names of the classes that may delete; at least one
     * @return "no class other than {@code classes} uses a Delete* type or calls a delete/remove member of the store or
     *         the AWS SDK"
     * @throws IllegalArgumentException when no class is given
     */
    public static ArchRule deleteOnlyIn(String service, String... classes) {
        requireSome(classes);
        Set<String> allowed = Set.of(classes);
        DescribedPredicate<JavaClass> outside = DescribedPredicate.describe("other than " + allowed,
                (JavaClass c) -> !allowed.contains(c.getName()) && !allowed.contains(outermost(c).getName()));
        return noClasses().that(outside).should().dependOnClassesThat(deleteType().or(abortType()))
                .orShould().accessTargetWhere(storeMemberNamed(DESTRUCTIVE_VERBS, Set.of()))
                .because("in the " + service + " only " + String.join(", ", classes)
                        + " deletes stored objects (retention, under checkpoints/ only); nothing else may delete");
    }

    private static JavaClass outermost(JavaClass c) {
        JavaClass out = c;
        while (out.getEnclosingClass().isPresent()) {
            out = out.getEnclosingClass().get();
        }
        return out;
    }

    private static void requireSome(String[] packages) {
        if (packages.length == 0) {
            throw new IllegalArgumentException("name at least one package that may use the store");
        }
    }

    private static DescribedPredicate<JavaClass> deleteType() {
        return resideInAnyPackage(AWS_SDK + "..").and(simpleNameStartingWith("Delete"))
                .or(resideInAnyPackage(STORE + "..").and(DescribedPredicate.describe("name containing Delet",
                        (JavaClass type) -> type.getSimpleName().contains("Delet"))))
                .as("a Delete* type of the AWS SDK or a Delet* type of the store");
    }

    private static DescribedPredicate<JavaClass> abortType() {
        return resideInAnyPackage(AWS_SDK + "..").and(simpleNameStartingWith("AbortMultipartUpload"))
                .as("an AbortMultipartUpload* type of the AWS SDK");
    }

    private static DescribedPredicate<JavaAccess<?>> storeMemberNamed(List<String> verbs, Set<String> names) {
        Set<String> shown = new TreeSet<>(names);
        return DescribedPredicate.describe("a member of the store or the AWS SDK named " + verbs + "* or " + shown,
                access -> {
                    String owner = access.getTargetOwner().getPackageName();
                    String name = access.getTarget().getName();
                    boolean storeSide = owner.startsWith(STORE) || owner.startsWith(AWS_SDK);
                    return storeSide && (names.contains(name) || verbs.stream().anyMatch(name::startsWith));
                });
    }
}
