package io.stowage.bench;

import io.stowage.store.s3.ReadTuning;

import java.util.Arrays;
import java.util.List;

/**
 * Which Stowage read paths {@link ReReadBenchmark} measures and how they read, from system properties
 * ({@code -Dstowage.bench.NAME=VALUE}).
 *
 * @param readers  comma-separated read paths ({@code readers}, default {@code netty,apache,urlconnection}):
 *                 {@code netty} = {@code S3ObjectStore} (async client, Netty), {@code apache} / {@code urlconnection} =
 *                 {@code S3ObjectReader} on the blocking client with Apache HttpClient 5 / {@code HttpURLConnection}
 * @param tuning   ranged-read threshold, part size and parts in flight, for every path ({@code ranged-threshold},
 *                 default 64 MiB; {@code part-size}, default 16 MiB; {@code parts-in-flight}, default 4)
 */
public record ReaderOptions(List<String> readers, ReadTuning tuning) {
    private static final String PREFIX = "stowage.bench.";

    /** @return the options given as system properties, defaults for the rest */
    public static ReaderOptions fromSystemProperties() {
        ReadTuning defaults = ReadTuning.defaults();
        return new ReaderOptions(
                Arrays.stream(System.getProperty(PREFIX + "readers", "netty,apache,urlconnection").split(","))
                        .map(String::trim).filter(s -> !s.isEmpty()).toList(),
                new ReadTuning(Long.getLong(PREFIX + "ranged-threshold", defaults.rangedThreshold()),
                        Integer.getInteger(PREFIX + "part-size", defaults.partSize()),
                        Integer.getInteger(PREFIX + "parts-in-flight", defaults.partsInFlight())));
    }
}
