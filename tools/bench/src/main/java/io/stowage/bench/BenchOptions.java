package io.stowage.bench;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The knobs of {@link ReReadBenchmark}, read from system properties ({@code -Dstowage.bench.NAME=VALUE}); produces
 * the sizes, counts, parallelism and tool paths of one run.
 *
 * @param bigBytes    size of the single large object in bytes ({@code big-bytes}, default 1 GiB)
 * @param smallCount  number of small objects ({@code small-count}, default 200)
 * @param smallBytes  size of each small object in bytes ({@code small-bytes}, default 10 MiB)
 * @param parallelism small objects Stowage re-reads at once, as the verifier's workers would ({@code parallelism}, default 4)
 * @param warmups     untimed runs of each tool on each input before the timed ones ({@code warmups}, default 1)
 * @param runs        timed runs of each tool on each input; the median is reported ({@code runs}, default 3)
 * @param seed        seed of the random bytes of the inputs ({@code seed}, default 5)
 * @param workDir     where the stack and the local copies go ({@code work-dir}); default a new temporary directory
 * @param keep        keep the work directory afterwards ({@code keep}, default false)
 * @param rclone      the rclone executable ({@code rclone}, default {@code rclone})
 * @param aws         the aws CLI executable ({@code aws}, default {@code /usr/bin/aws}, Debian's awscli package)
 * @param openssl     the openssl executable ({@code openssl}, default {@code openssl})
 * @param awsOnSmall  also run the aws pipeline on each small object ({@code aws-on-small}, default false: no goal
 *                    is set there and 200 CLI starts per run would measure Python's start-up)
 */
public record BenchOptions(long bigBytes, int smallCount, long smallBytes, int parallelism, int warmups, int runs,
                           long seed, Optional<Path> workDir, boolean keep, String rclone, String aws, String openssl,
                           boolean awsOnSmall) {
    private static final String PREFIX = "stowage.bench.";

    /** @return the options given as system properties, defaults for the rest */
    public static BenchOptions fromSystemProperties() {
        return new BenchOptions(
                Long.getLong(PREFIX + "big-bytes", 1L << 30),
                Integer.getInteger(PREFIX + "small-count", 200),
                Long.getLong(PREFIX + "small-bytes", 10L << 20),
                Integer.getInteger(PREFIX + "parallelism", 4),
                Integer.getInteger(PREFIX + "warmups", 1),
                Integer.getInteger(PREFIX + "runs", 3),
                Long.getLong(PREFIX + "seed", 5),
                Optional.ofNullable(System.getProperty(PREFIX + "work-dir")).map(Path::of),
                Boolean.getBoolean(PREFIX + "keep"),
                System.getProperty(PREFIX + "rclone", "rclone"),
                System.getProperty(PREFIX + "aws", "/usr/bin/aws"),
                System.getProperty(PREFIX + "openssl", "openssl"),
                Boolean.getBoolean(PREFIX + "aws-on-small"));
    }
}
