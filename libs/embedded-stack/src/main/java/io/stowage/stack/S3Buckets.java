package io.stowage.stack;

import io.stowage.events.Sha256;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * Consumes an S3 endpoint (S3Proxy or MinIO) with its region, credentials and a bucket name, and produces that
 * bucket (an existing one owned by the same identity is kept).
 */
final class S3Buckets {
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    /** SHA-256 of the empty request body, in hex. */
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private S3Buckets() {
    }

    /**
     * Creates a bucket with one path-style PUT signed by AWS signature version 4 (which S3Proxy and MinIO both
     * accept): plain {@code HttpURLConnection}, so that the stack does not load the AWS SDK (about 2 s of CPU)
     * into the test JVM.
     *
     * @param endpoint base URL such as {@code http://127.0.0.1:PORT}
     * @param region   signing region, e.g. {@code us-east-1}
     * @throws IOException when the server cannot be reached or answers other than 200 or 409 BucketAlreadyOwnedByYou
     */
    static void create(String endpoint, String region, String accessKey, String secretKey, String bucket) throws IOException {
        URL url = URI.create(endpoint + "/" + bucket).toURL();
        String amzDate = AMZ_DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
        HttpURLConnection put = (HttpURLConnection) url.openConnection();
        put.setRequestMethod("PUT");
        put.setRequestProperty("x-amz-date", amzDate);
        put.setRequestProperty("x-amz-content-sha256", EMPTY_SHA256);
        put.setRequestProperty("Authorization", authorization(url, amzDate, region, accessKey, secretKey));
        put.setFixedLengthStreamingMode(0);
        put.setDoOutput(true);
        put.getOutputStream().close();
        int status = put.getResponseCode();
        String body = readQuietly(status < 400 ? put.getInputStream() : put.getErrorStream());
        // 409 BucketAlreadyOwnedByYou: kept from an earlier start in the same work directory
        if (status != 200 && !(status == 409 && body.contains("BucketAlreadyOwnedByYou"))) {
            throw new IOException("the S3 server at " + endpoint + " refused to create bucket " + bucket + ": HTTP "
                    + status + " " + body);
        }
    }

    /** @return the SigV4 {@code Authorization} header of an empty-bodied PUT to {@code url} with no query */
    static String authorization(URL url, String amzDate, String region, String accessKey, String secretKey) throws IOException {
        String host = url.getPort() == -1 ? url.getHost() : url.getHost() + ":" + url.getPort();
        String signedHeaders = "host;x-amz-content-sha256;x-amz-date";
        String canonical = "PUT\n" + url.getPath() + "\n\nhost:" + host + "\nx-amz-content-sha256:" + EMPTY_SHA256
                + "\nx-amz-date:" + amzDate + "\n\n" + signedHeaders + "\n" + EMPTY_SHA256;
        String scope = amzDate.substring(0, 8) + "/" + region + "/s3/aws4_request";
        try {
            String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                    + Sha256.of(bytes(canonical));
            byte[] key = hmac(bytes("AWS4" + secretKey), amzDate.substring(0, 8));
            for (String part : new String[] {region, "s3", "aws4_request"}) {
                key = hmac(key, part);
            }
            return "AWS4-HMAC-SHA256 Credential=" + accessKey + "/" + scope + ", SignedHeaders=" + signedHeaders
                    + ", Signature=" + HexFormat.of().formatHex(hmac(key, toSign));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot sign the bucket request", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(bytes(data));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String readQuietly(InputStream in) throws IOException {
        if (in == null) {
            return "";
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
