package io.stowage.bench;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The knobs of {@link ShardBenchmark}, read from system properties ({@code -Dstowage.bench.shards.NAME=VALUE}).
 *
 * @param totalBytes target size of the mixed input in bytes ({@code total-bytes}, default 2 GiB); 40 % real WAV
 *                   files, 40 % incompressible random bytes, 20 % text
 * @param shardBytes target member bytes per shard ({@code shard-bytes}, default 1 GiB, the production minimum, so a
 *                   2 GiB input gives two shards for two cores)
 * @param runs       timed rounds; each round runs the three contenders once, interleaved; the median is reported
 *                   ({@code runs}, default 3)
 * @param seed       seed of the random bytes and of the text ({@code seed}, default 7)
 * @param wavDir     directory of real WAV files ({@code wav-dir}, default Debian's asterisk-core-sounds-en-wav)
 * @param workDir    where the input, the shards and the tar go ({@code work-dir}); default a new temporary directory
 * @param keep       keep the work directory afterwards ({@code keep}, default false)
 */
public record ShardBenchOptions(long totalBytes, long shardBytes, int runs, long seed, Path wavDir,
                                Optional<Path> workDir, boolean keep) {
    private static final String PREFIX = "stowage.bench.shards.";

    /** @return the options given as system properties, defaults for the rest */
    public static ShardBenchOptions fromSystemProperties() {
        return new ShardBenchOptions(
                Long.getLong(PREFIX + "total-bytes", 2L << 30),
                Long.getLong(PREFIX + "shard-bytes", 1L << 30),
                Integer.getInteger(PREFIX + "runs", 3),
                Long.getLong(PREFIX + "seed", 7),
                Path.of(System.getProperty(PREFIX + "wav-dir", "/usr/share/asterisk/sounds/en_US_f_Allison")),
                Optional.ofNullable(System.getProperty(PREFIX + "work-dir")).map(Path::of),
                Boolean.getBoolean(PREFIX + "keep"));
    }
}
