package io.stowage.store.s3;

/** Which blocking HTTP client {@link S3ObjectReader} runs on (docs/benchmarks/re-read.md compares them). */
public enum HttpBackend {
    /** Apache HttpClient 5 ({@code software.amazon.awssdk:apache5-client}), pooled connections. */
    APACHE,
    /** The JDK's {@code HttpURLConnection} ({@code url-connection-client}), keep-alive connections. */
    URL_CONNECTION
}
