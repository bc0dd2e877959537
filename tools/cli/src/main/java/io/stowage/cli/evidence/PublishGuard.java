package io.stowage.cli.evidence;

import io.stowage.cli.CliException;
import io.stowage.cli.platform.Session;
import io.stowage.stack.StackEndpoints;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The last look before an export is written: refuses text that holds a value a published page must never carry
 * (storage policy: small JSON, tables and evidence hashes only). It is a second line behind the
 * {@link EvidenceAllowList}, for the case where an allowed field happens to hold such a value (a dataset named like
 * a bucket). What it looks for: the session's bucket names, S3 access key and secret key, database password, the
 * bearer token in use, the {@code host:port} and {@code :port} of the store, Kafka, PostgreSQL and every service,
 * any {@code ://} URL, and the signed-URL parameter names ({@link #SIGNED_URL_PARAMETERS}, case-insensitive).
 * A refusal names what was found, never the value.
 */
public final class PublishGuard {
    /** Query parameters of S3 presigned URLs (SigV4 and SigV2); none may appear in a published file. */
    public static final List<String> SIGNED_URL_PARAMETERS = List.of("X-Amz-Signature", "X-Amz-Credential",
            "X-Amz-Security-Token", "Signature=", "AWSAccessKeyId");
    private static final Pattern HOST_PORT = Pattern.compile("([A-Za-z0-9.\\-\\[\\]:]+):(\\d{1,5})");

    /** A value that must not be published (as a case-insensitive pattern), and what to call it in a refusal. */
    record Forbidden(String what, Pattern pattern) {
        /** @return a literal value, matched anywhere, case-insensitively */
        static Forbidden literal(String what, String value) {
            return new Forbidden(what, Pattern.compile(Pattern.quote(value), Pattern.CASE_INSENSITIVE));
        }

        /** @return {@code :port} not followed by another digit */
        static Forbidden port(String what, String port) {
            return new Forbidden(what, Pattern.compile(":" + port + "(?!\\d)"));
        }
    }

    private final List<Forbidden> forbidden;

    PublishGuard(List<Forbidden> forbidden) {
        this.forbidden = List.copyOf(forbidden);
    }

    /**
     * @param session the session whose stack and services the export read through
     * @param token   the bearer token the export presents, if any
     * @return a guard over every value of the session that must not be published
     */
    public static PublishGuard of(Session session, Optional<String> token) {
        StackEndpoints stack = session.stack();
        List<Forbidden> values = new ArrayList<>();
        add(values, "the primary bucket name", stack.primaryBucket());
        add(values, "the replica bucket name", stack.replicaBucket());
        add(values, "the S3 access key", stack.s3AccessKey());
        add(values, "the S3 secret key", stack.s3SecretKey());
        add(values, "the database password", stack.pgPassword());
        token.ifPresent(t -> add(values, "the bearer token", t));
        endpoints(values, "the S3 endpoint", stack.s3Endpoint());
        endpoints(values, "the Kafka bootstrap address", stack.kafkaBootstrapServers());
        endpoints(values, "the PostgreSQL address", stack.pgJdbcUrl());
        session.services().forEach((name, url) -> endpoints(values, "the " + name + " address", url));
        values.add(Forbidden.literal("a URL", "://"));
        SIGNED_URL_PARAMETERS.forEach(p -> values.add(Forbidden.literal("the signed-URL parameter " + p, p)));
        return new PublishGuard(values);
    }

    /**
     * @param file    the file's name, for the refusal
     * @param content what would be written
     * @return this guard, to check the next file
     * @throws CliException (exit 1) naming the file and what it would contain; nothing has been written then
     */
    public PublishGuard check(String file, String content) {
        for (Forbidden f : forbidden) {
            if (f.pattern().matcher(content).find()) {
                throw new CliException(CliException.FAILED, "refusing to export: " + file + " would contain " + f.what()
                        + " (published evidence carries no bucket, endpoint, credential or signed URL); nothing written");
            }
        }
        return this;
    }

    private static void add(List<Forbidden> to, String what, String value) {
        if (value != null && !value.isBlank()) {
            to.add(Forbidden.literal(what, value));
        }
    }

    /** Adds each {@code host:port} in {@code text} (a URL, a JDBC URL, a comma-separated bootstrap list) and its {@code :port}. */
    private static void endpoints(List<Forbidden> to, String what, String text) {
        if (text == null) {
            return;
        }
        String authorities = text.startsWith("jdbc:") ? text.substring(5) : text;
        for (String part : authorities.split(",")) {
            String hostPort = part.contains("://") ? URI.create(part.strip()).getRawAuthority() : part.strip();
            Matcher m = hostPort == null ? null : HOST_PORT.matcher(hostPort);
            if (m != null && m.matches()) {
                to.add(Forbidden.literal(what + " (host:port)", m.group(0)));
                to.add(Forbidden.port(what + " (port)", m.group(2)));
            }
        }
    }
}
