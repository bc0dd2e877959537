package io.stowage.stack;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Locale;

/**
 * Consumes an S3 endpoint with its credentials and a bucket name, and produces that bucket (an existing one
 * owned by the same identity is kept).
 */
final class S3Buckets {
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private S3Buckets() {
    }

    /**
     * Creates a bucket with one PUT signed by AWS signature version 2 (which S3Proxy accepts): plain
     * {@code HttpURLConnection}, so that the stack does not load the AWS SDK (about 2 s of CPU) into the test JVM.
     *
     * @throws IOException when the server cannot be reached or answers other than 200 or 409 BucketAlreadyOwnedByYou
     */
    static void create(String endpoint, String accessKey, String secretKey, String bucket) throws IOException {
        String date = HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
        String signature;
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            signature = Base64.getEncoder().encodeToString(
                    mac.doFinal(("PUT\n\n\n" + date + "\n/" + bucket).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot sign the bucket request", e);
        }
        HttpURLConnection put = (HttpURLConnection) URI.create(endpoint + "/" + bucket).toURL().openConnection();
        put.setRequestMethod("PUT");
        put.setRequestProperty("Date", date);
        put.setRequestProperty("Authorization", "AWS " + accessKey + ":" + signature);
        put.setFixedLengthStreamingMode(0);
        put.setDoOutput(true);
        put.getOutputStream().close();
        int status = put.getResponseCode();
        String body = readQuietly(status < 400 ? put.getInputStream() : put.getErrorStream());
        // 409 BucketAlreadyOwnedByYou: kept from an earlier start in the same work directory
        if (status != 200 && !(status == 409 && body.contains("BucketAlreadyOwnedByYou"))) {
            throw new IOException("S3Proxy refused to create bucket " + bucket + ": HTTP " + status + " " + body);
        }
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
