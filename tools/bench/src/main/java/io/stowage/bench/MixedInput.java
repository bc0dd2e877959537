package io.stowage.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Writes the shard benchmark's input directory: real WAV files copied again and again under {@code wav/NNN/} (40 % of
 * the bytes), incompressible random files of 64 MiB under {@code random/} (40 %), and text files of 4 MiB under
 * {@code text/} made of the real licence texts of {@code /usr/share/common-licenses} with numbered lines (20 %).
 *
 * @param dir   the input directory
 * @param bytes total bytes of all files written
 * @param files number of files written
 */
public record MixedInput(Path dir, long bytes, int files) {
    private static final int RANDOM_FILE = 64 << 20;
    private static final int TEXT_FILE = 4 << 20;

    /**
     * @throws IOException when {@code wavDir} holds no {@code *.wav} file, or writing fails
     */
    public static MixedInput write(Path dir, long totalBytes, Path wavDir, long seed) throws IOException {
        Files.createDirectories(dir);
        long[] written = new long[2];
        List<Path> wavs;
        try (Stream<Path> files = Files.walk(wavDir)) {
            wavs = files.filter(f -> f.toString().endsWith(".wav") && Files.isRegularFile(f)).sorted().toList();
        }
        if (wavs.isEmpty()) {
            throw new IOException("no *.wav under " + wavDir + " (apt-get install asterisk-core-sounds-en-wav)");
        }
        for (int copy = 0; written[0] < totalBytes * 4 / 10; copy++) {
            Path copyDir = Files.createDirectories(dir.resolve("wav").resolve(String.format("%03d", copy)));
            for (Path wav : wavs) {
                Path target = copyDir.resolve(wavDir.relativize(wav).toString().replace('/', '_'));
                Files.copy(wav, target);
                count(written, Files.size(target));
            }
        }
        Random random = new Random(seed);
        byte[] block = new byte[RANDOM_FILE];
        Path randomDir = Files.createDirectories(dir.resolve("random"));
        for (int i = 0; written[0] < totalBytes * 8 / 10; i++) {
            random.nextBytes(block);
            Files.write(randomDir.resolve(String.format("%04d.bin", i)), block);
            count(written, block.length);
        }
        List<String> lines = licenceLines();
        for (int i = 0; written[0] < totalBytes; i++) {
            Path file = Files.createDirectories(dir.resolve("text")).resolve(String.format("%04d.txt", i));
            try (OutputStream out = Files.newOutputStream(file)) {
                long size = 0;
                for (int n = 0; size < TEXT_FILE; n++) {
                    byte[] line = (i + "." + n + " " + lines.get(random.nextInt(lines.size())) + "\n").getBytes(StandardCharsets.UTF_8);
                    out.write(line);
                    size += line.length;
                }
            }
            count(written, Files.size(file));
        }
        return new MixedInput(dir, written[0], (int) written[1]);
    }

    private static void count(long[] written, long bytes) {
        written[0] += bytes;
        written[1]++;
    }

    private static List<String> licenceLines() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("/usr/share/common-licenses"))) {
            List<String> lines = files.filter(Files::isRegularFile).sorted().flatMap(f -> {
                try {
                    return Files.readAllLines(f, StandardCharsets.ISO_8859_1).stream();
                } catch (IOException e) {
                    return Stream.empty();
                }
            }).filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? List.of("lorem ipsum dolor sit amet") : lines;
        }
    }
}
