package io.stowage.bench;

/**
 * The bucket the inputs were uploaded to, as the external tools need it.
 *
 * @param endpoint        base URL of the S3 API, {@code http://127.0.0.1:PORT}
 * @param region          signing region, {@code us-east-1}
 * @param bucket          the bucket holding the inputs
 * @param accessKeyId     access key id
 * @param secretAccessKey secret access key; {@link #toString()} masks it
 */
public record S3Target(String endpoint, String region, String bucket, String accessKeyId, String secretAccessKey) {

    @Override
    public String toString() {
        return "S3Target[" + endpoint + ", " + region + ", " + bucket + ", key " + accessKeyId + ", secret masked]";
    }
}
