package io.stowage.shardformat.write;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;

/**
 * Test helper run as a child JVM by {@link BoundedHeapTest}: shards a directory with the default
 * parallelism and prints, one per line, {@code processors <n>}, {@code shard <index> <sha256> <bytes>},
 * {@code max-heap <bytes>} and {@code peak-heap <bytes>} (sum of the heap pools' peak usage).
 * Arguments: dataset directory, staging directory, target shard bytes.
 */
public final class ShardBuildProbe {
    private ShardBuildProbe() {
    }

    /**
     * @param args dataset directory, staging directory, target shard bytes
     * @throws Exception any failure of the build, which ends the child JVM with a non-zero exit code
     */
    public static void main(String[] args) throws Exception {
        SealedDataset sealed = new DatasetSharder(new ShardWriter(0)).shard(new ShardRequest(Path.of(args[0]),
                "probe", "r1", "CC0-1.0", "generated", Long.parseLong(args[2]), Path.of(args[1])));
        System.out.println("processors " + Runtime.getRuntime().availableProcessors());
        for (BuiltShard shard : sealed.shards()) {
            System.out.println("shard " + shard.index() + " " + shard.shard().sha256() + " " + shard.shard().bytes());
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.println("max-heap " + Runtime.getRuntime().maxMemory());
        System.out.println("peak-heap " + peak);
    }
}
