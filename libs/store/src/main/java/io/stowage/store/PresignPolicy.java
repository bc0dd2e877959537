package io.stowage.store;

import io.stowage.events.ObjectKeys;
import io.stowage.events.Validation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides whether a presigned GET URL may be made: the key must lie under an allowlisted prefix
 * ({@code models/} by default) and the URL may live at most 7 days (604,800 s, SigV4's own limit). Pure logic; the
 * one rule for {@code stowage presign}, {@code stowage model share} and the verifier's {@code POST /api/links}.
 *
 * @param allowedPrefixes key prefixes, each ending in {@code /}, under which URLs may be made
 */
public record PresignPolicy(List<String> allowedPrefixes) {

    /** The longest lifetime of a URL in seconds: 7 days. */
    public static final long MAX_SECONDS = 604_800L;
    /** The prefix allowed when nothing else is configured. */
    public static final String DEFAULT_PREFIX = "models/";
    /** The environment variable that extends the allowlist (comma-separated prefixes): {@code stowage.presign.allowed-prefixes}. */
    public static final String ENVIRONMENT = "STOWAGE_PRESIGN_ALLOWED_PREFIXES";


    public PresignPolicy {
        allowedPrefixes = List.copyOf(allowedPrefixes);
    }

    /**
     * @param configured comma-separated prefixes from the environment (may be null or blank)
     * @param flags      prefixes given on the command line
     * @return {@code models/} plus every configured and given prefix, each ending in {@code /}
     * @throws IllegalArgumentException when a prefix is not made of valid key segments
     */
    public static PresignPolicy of(String configured, List<String> flags) {
        List<String> prefixes = new ArrayList<>(List.of(DEFAULT_PREFIX));
        List<String> extra = new ArrayList<>(flags);
        if (configured != null && !configured.isBlank()) {
            extra.addAll(List.of(configured.split(",")));
        }
        for (String raw : extra) {
            String prefix = raw.strip();
            String trimmed = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
            String problem = segmentsProblem(trimmed);
            if (problem != null) {
                throw new IllegalArgumentException("allowed prefix '" + raw + "': " + problem);
            }
            if (!prefixes.contains(trimmed + "/")) {
                prefixes.add(trimmed + "/");
            }
        }
        return new PresignPolicy(prefixes);
    }

    /**
     * @param duration a URL's lifetime as read from its caller's input
     * @param asTyped  how the caller names that input in a message, e.g. {@code --expires '24h'}
     * @return {@code duration}, when it is a whole number of seconds from 1 s to {@link #MAX_SECONDS}
     * @throws IllegalArgumentException otherwise (the message is one line and starts with {@code asTyped})
     */
    public static Duration lifetime(Duration duration, String asTyped) {
        if (duration.isNegative() || duration.isZero() || duration.getNano() != 0) {
            throw new IllegalArgumentException(asTyped + " must be a whole number of seconds above zero");
        }
        if (duration.getSeconds() > MAX_SECONDS) {
            throw new IllegalArgumentException(asTyped + " is " + duration.getSeconds()
                    + " s; a presigned URL lives at most 7 days (" + MAX_SECONDS + " s)");
        }
        return duration;
    }

    /**
     * @param key the object key to presign
     * @return null when {@code key} may be presigned, else why not (one line)
     */
    public String refusal(String key) {
        String problem = keyProblem(key);
        if (problem != null) {
            return problem;
        }
        for (String prefix : allowedPrefixes) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                return null;
            }
        }
        return "key '" + key + "' is outside the prefixes allowed for presigned URLs " + allowedPrefixes
                + " (extend with " + ENVIRONMENT + ")";
    }

    /**
     * Whether {@code key} is a well-formed object key at all, whatever the allowlist: a bad key is bad input
     * (exit 2), while a well-formed key outside the allowlist is a refusal (exit 3).
     *
     * @param key the object key as typed
     * @return null for a well-formed key, else why not (an empty, {@code .} or {@code ..} segment, a character
     *         outside the name rule, more than {@link ObjectKeys#MAX_KEY_BYTES} bytes)
     */
    public static String keyProblem(String key) {
        String problem = segmentsProblem(key);
        if (problem != null) {
            return "key '" + key + "': " + problem;
        }
        if (key.getBytes(StandardCharsets.UTF_8).length > ObjectKeys.MAX_KEY_BYTES) {
            return "key is longer than " + ObjectKeys.MAX_KEY_BYTES + " bytes";
        }
        return null;
    }

    /** Every '/'-separated segment must be a valid name: no empty, {@code .} or {@code ..} segment a client could fold. */
    private static String segmentsProblem(String path) {
        for (String segment : path.split("/", -1)) {
            String problem = Validation.segmentProblem(segment);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }
}
