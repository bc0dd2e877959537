package io.stowage.bench;

import io.stowage.events.Sha256;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Consumes a directory, a key prefix, a count, a size and a seed; produces an {@link InputSet} of files of
 * pseudo-random (incompressible) bytes, each hashed with SHA-256 as it is written.
 */
public final class RandomInputs {
    private static final int CHUNK = 1 << 20;

    private RandomInputs() {
    }

    /**
     * @param dir    directory to create the files in (created if missing)
     * @param prefix key prefix of the set, ending in {@code /}
     * @param count  number of files
     * @param bytes  size of each file in bytes
     * @param seed   seed of the bytes: the same seed gives the same files
     * @return the set, files named {@code object-0000.bin} and up
     * @throws IOException when a file cannot be written
     */
    public static InputSet write(Path dir, String prefix, int count, long bytes, long seed) throws IOException {
        Files.createDirectories(dir);
        SplittableRandom random = new SplittableRandom(seed);
        List<BenchObject> objects = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = String.format("object-%04d.bin", i);
            Path file = dir.resolve(name);
            objects.add(new BenchObject(prefix + name, file, bytes, writeOne(file, bytes, random)));
        }
        String label = count + " × " + (bytes >> 20) + " MiB";
        return new InputSet(label, dir, prefix, objects);
    }

    private static String writeOne(Path file, long bytes, SplittableRandom random) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        byte[] chunk = new byte[CHUNK];
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long left = bytes; left > 0; ) {
                int n = (int) Math.min(CHUNK, left);
                random.nextBytes(chunk);
                digest.update(chunk, 0, n);
                ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, n);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                left -= n;
            }
        }
        return Sha256.hex(digest);
    }
}
