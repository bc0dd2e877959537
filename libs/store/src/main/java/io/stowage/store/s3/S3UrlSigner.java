package io.stowage.store.s3;

import io.stowage.store.StoreConfig;
import io.stowage.store.UrlSigner;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.GetObjectPresignRequest;

import java.net.URI;
import java.time.Duration;

/**
 * Presigned GET URLs (SigV4, path-style) for one store's bucket, signed locally with that store's credentials: a URL
 * reads one object and nothing else, whatever the credentials allow. No request reaches the store; whether the key may
 * be handed out ({@link io.stowage.store.PresignPolicy}) and whether the object is there are the caller's checks.
 * Thread-safe; close it when done.
 */
public final class S3UrlSigner implements UrlSigner {
    private final String bucket;
    private final S3Presigner presigner;

    /** @param config the store: endpoint, region, bucket and the credentials that sign */
    public S3UrlSigner(StoreConfig config) {
        this.bucket = config.bucket();
        this.presigner = S3Presigner.builder()
                .endpointOverride(config.endpoint())
                .region(Region.of(config.region()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(config.accessKeyId(), config.secretAccessKey())))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build();
    }

    @Override
    public String bucket() {
        return bucket;
    }

    /**
     * @param key      the object key in this store's bucket
     * @param lifetime how long the URL works, 1 s to 7 days (SigV4's limit)
     * @return a path-style URL that answers GET with the object's bytes until the lifetime ends
     */
    @Override
    public URI presignGet(String key, Duration lifetime) {
        return URI.create(presigner.presignGetObject(GetObjectPresignRequest.builder()
                .signatureDuration(lifetime)
                .getObjectRequest(b -> b.bucket(bucket).key(key))
                .build()).url().toString());
    }

    @Override
    public void close() {
        presigner.close();
    }
}
