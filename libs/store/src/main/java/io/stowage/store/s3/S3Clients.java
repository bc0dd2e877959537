package io.stowage.store.s3;

import io.stowage.store.StoreConfig;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.time.Duration;

/** Builds the S3 async client (Netty, path-style, static credentials) for one {@link StoreConfig}. */
public final class S3Clients {
    private S3Clients() {
    }

    /**
     * The SDK retries once on its own (2 attempts); longer backoff is the caller's choice, see
     * {@link io.stowage.store.RetryPolicy}. Connect timeout 5 s, read timeout 60 s.
     *
     * @return a new client; close it when done
     */
    public static S3AsyncClient create(StoreConfig config) {
        return S3AsyncClient.builder()
                .endpointOverride(config.endpoint())
                .region(Region.of(config.region()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(config.accessKeyId(), config.secretAccessKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(32)
                        .connectionTimeout(Duration.ofSeconds(5))
                        .readTimeout(Duration.ofSeconds(60))
                        .writeTimeout(Duration.ofSeconds(60)))
                .overrideConfiguration(o -> o.retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(2).build()))
                .build();
    }
}
