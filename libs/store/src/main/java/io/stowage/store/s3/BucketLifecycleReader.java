package io.stowage.store.s3;

import io.stowage.store.LifecycleRule;
import io.stowage.store.StoreConfig;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.LifecycleRuleFilter;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * Reads one bucket's lifecycle configuration (GetBucketLifecycleConfiguration) and produces its rules as
 * {@link LifecycleRule}s. Read-only: it never puts or deletes a configuration.
 */
public final class BucketLifecycleReader {
    private BucketLifecycleReader() {
    }

    /**
     * @return the rules; an empty list when the bucket has none (404 NoSuchLifecycleConfiguration); empty when the
     *         store does not implement lifecycle configuration at all (501 NotImplemented, as S3Proxy answers), so
     *         it runs no rules either
     * @throws io.stowage.store.StoreException for any other answer (403, a missing bucket, an unreachable store)
     */
    public static Optional<List<LifecycleRule>> read(StoreConfig config) {
        try (S3AsyncClient client = S3Clients.create(config)) {
            return Optional.of(client.getBucketLifecycleConfiguration(b -> b.bucket(config.bucket())).join()
                    .rules().stream().map(BucketLifecycleReader::rule).toList());
        } catch (CompletionException | S3Exception e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof S3Exception s3) {
                String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
                if (s3.statusCode() == 404 && "NoSuchLifecycleConfiguration".equals(code)) {
                    return Optional.of(List.of());
                }
                if (s3.statusCode() == 501 || "NotImplemented".equals(code)) {
                    return Optional.empty();
                }
            }
            throw S3Errors.translate(e, config.bucket(), "", "GET-LIFECYCLE " + config.name() + ":" + config.bucket());
        }
    }

    @SuppressWarnings("deprecation") // the top-level Prefix of a rule is legacy, but stores still send it
    private static LifecycleRule rule(software.amazon.awssdk.services.s3.model.LifecycleRule r) {
        LifecycleRuleFilter f = r.filter();
        String prefix = r.prefix() != null ? r.prefix() : "";
        boolean narrowed = false;
        if (f != null) {
            if (f.prefix() != null) {
                prefix = f.prefix();
            }
            if (f.and() != null && f.and().prefix() != null) {
                prefix = f.and().prefix();
            }
            narrowed = f.tag() != null || f.objectSizeGreaterThan() != null || f.objectSizeLessThan() != null
                    || (f.and() != null && (f.and().hasTags() && !f.and().tags().isEmpty()
                    || f.and().objectSizeGreaterThan() != null || f.and().objectSizeLessThan() != null));
        }
        var exp = r.expiration();
        return new LifecycleRule(r.id() == null ? "" : r.id(), "Enabled".equals(r.statusAsString()), prefix, narrowed,
                exp == null ? null : exp.days(), exp == null || exp.date() == null ? null : exp.date().toString(),
                r.noncurrentVersionExpiration() == null ? null : r.noncurrentVersionExpiration().noncurrentDays(),
                r.abortIncompleteMultipartUpload() == null ? null
                        : r.abortIncompleteMultipartUpload().daysAfterInitiation(),
                r.hasTransitions() ? r.transitions().size() : 0);
    }
}
