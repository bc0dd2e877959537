package io.stowage.store.s3;

import io.stowage.events.Sha256;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.ReadResult;
import io.stowage.store.StoreConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kills a real uploading JVM ({@link UploadChild}) with SIGKILL at several points of one multipart
 * upload to S3Proxy, restarts it each time, and checks that the same upload is continued, that no
 * part recorded as done is sent again, that every part but the last has the size fixed at creation
 * (even when the restarted process is configured with another part size), and that the final
 * object's bytes hash to the file's SHA-256.
 */
@ExtendWith(StowageStackExtension.class)
class ResumableUploadCrashTest {
    private static final int PART = UploadTuning.MIN_PART_SIZE;
    private static StackEndpoints stack;
    private static S3ObjectStore store;
    private static S3AsyncClient raw;

    @TempDir
    Path dir;

    @BeforeAll
    static void open(StackEndpoints endpoints) {
        stack = endpoints;
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        store = new S3ObjectStore(config, UploadTuning.defaults());
        raw = S3Clients.create(config);
    }

    @AfterAll
    static void close() {
        store.close();
        raw.close();
    }

    @Test
    void anUploadKilledThreeTimesIsContinuedAndEndsWithTheRightBytes() throws Exception {
        byte[] content = new byte[13 * PART + 777_777]; // 14 parts, the last one short
        new Random(42).nextBytes(content);
        Path file = Files.write(dir.resolve("model.pt"), content);
        String sha256 = Sha256.of(content);
        String key = "crash/" + UUID.randomUUID() + "/model.pt";
        Path journals = dir.resolve("journals");
        Path journal = journals.resolve(store.journalFile(key).getFileName());
        String[] args = {key, file.toString(), Long.toString(content.length), sha256, journals.toString()};

        // 1: killed after the upload was created and journaled, before any part was recorded
        Child first = Child.start(dir, "first", args, PART, 2, 400);
        await().atMost(Duration.ofSeconds(60)).until(() -> first.saw("STARTED "));
        first.kill();
        Journal j1 = Journal.read(journal);
        assertThat(j1.uploadId).isNotBlank();
        assertThat(j1.parts.size()).isLessThan(14);

        // 2: killed after at least 4 more parts were recorded
        Child second = Child.start(dir, "second", args, PART, 2, 150);
        await().atMost(Duration.ofSeconds(60)).until(() -> Journal.read(journal).parts.size() >= j1.parts.size() + 4);
        second.kill();
        Journal j2 = Journal.read(journal);
        assertThat(second.line("STARTED ")).isEqualTo("STARTED " + j1.uploadId + " true " + j1.parts.size());
        assertThat(j2.uploadId).isEqualTo(j1.uploadId);
        assertThat(common(second.sent(), j1.parts.keySet())).as("parts recorded, then sent again").isEmpty();

        // 3: killed again after at least 3 more parts; 4: runs to the end with another configured part size
        Child third = Child.start(dir, "third", args, PART, 3, 150);
        await().atMost(Duration.ofSeconds(60)).until(() -> Journal.read(journal).parts.size() >= j2.parts.size() + 3
                || third.saw("DONE "));
        third.kill();
        Journal j3 = Journal.exists(journal) ? Journal.read(journal) : j2;
        assertThat(common(third.sent(), j2.parts.keySet())).as("parts recorded, then sent again").isEmpty();

        Child last = Child.start(dir, "last", args, PART + (1 << 20), 3, 0);
        assertThat(last.process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(last.process.exitValue()).as(last.output()).isZero();
        assertThat(last.line("STARTED ")).startsWith("STARTED " + j1.uploadId + " true ");
        assertThat(common(last.sent(), j3.parts.keySet())).as("parts recorded, then sent again").isEmpty();
        Set<Integer> all = new HashSet<>(j3.parts.keySet());
        all.addAll(last.sent());
        assertThat(all).hasSize(14);
        for (Child child : List.of(second, third, last)) {
            for (String line : child.lines("SENT ")) {
                int n = Integer.parseInt(line.split(" ")[1]);
                assertThat(Long.parseLong(line.split(" ")[2])).isEqualTo(n < 14 ? PART : 777_777);
            }
        }
        assertThat(last.line("DONE ")).endsWith(" " + sha256 + " false");
        assertThat(Files.exists(journal)).isFalse();
        assertThat(store.head(key).orElseThrow().sha256()).isEqualTo(sha256);
        assertThat(store.readAndHash(key)).isEqualTo(new ReadResult(content.length, sha256));
        assertThat(raw.listMultipartUploads(b -> b.bucket(stack.primaryBucket()).prefix(key)).join().uploads())
                .isEmpty();
    }

    private static Set<Integer> common(Set<Integer> a, Set<Integer> b) {
        Set<Integer> both = new HashSet<>(a);
        both.retainAll(b);
        return both;
    }

    /** A child JVM running {@link UploadChild}, its stdout in a file. */
    private record Child(Process process, Path out) {
        static Child start(Path dir, String name, String[] args, int partSize, int inFlight, long pauseMillis)
                throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                    "-cp", System.getProperty("java.class.path"), UploadChild.class.getName()));
            command.addAll(List.of(args));
            command.addAll(List.of(Integer.toString(partSize), Integer.toString(inFlight), Long.toString(pauseMillis)));
            Path out = dir.resolve(name + ".out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(dir.resolve(name + ".err").toFile());
            builder.environment().putAll(Map.of("S3_ENDPOINT", stack.s3Endpoint(), "S3_REGION", stack.s3Region(),
                    "S3_BUCKET", stack.primaryBucket(), "S3_ACCESS_KEY", stack.s3AccessKey(),
                    "S3_SECRET_KEY", stack.s3SecretKey()));
            return new Child(builder.start(), out);
        }

        /** SIGKILL (destroyForcibly on Unix), then wait until the process is gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        String output() throws IOException {
            return Files.exists(out) ? Files.readString(out) : "";
        }

        List<String> lines(String prefix) throws IOException {
            return output().lines().filter(l -> l.startsWith(prefix)).toList();
        }

        boolean saw(String prefix) throws IOException {
            return !lines(prefix).isEmpty();
        }

        String line(String prefix) throws IOException {
            return lines(prefix).stream().findFirst().orElse("(none)");
        }

        Set<Integer> sent() throws IOException {
            Set<Integer> parts = new HashSet<>();
            for (String line : lines("SENT ")) {
                assertThat(parts.add(Integer.parseInt(line.split(" ")[1]))).as("part sent twice: " + line).isTrue();
            }
            return parts;
        }
    }

    /** The journal as the test reads it: upload id and recorded parts (number to bytes). */
    private record Journal(String uploadId, Map<Integer, Long> parts) {
        static boolean exists(Path file) {
            return Files.exists(file);
        }

        static Journal read(Path file) throws IOException {
            if (!Files.exists(file)) {
                return new Journal("", Map.of());
            }
            String text = Files.readString(file);
            List<String> lines = new ArrayList<>(text.lines().toList());
            if (!text.endsWith("\n") && !lines.isEmpty()) {
                lines.remove(lines.size() - 1);
            }
            String uploadId = lines.isEmpty() ? "" : java.net.URLDecoder.decode(lines.get(0).split("\t")[2],
                    java.nio.charset.StandardCharsets.UTF_8);
            Map<Integer, Long> parts = new java.util.TreeMap<>();
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.split("\t");
                parts.put(Integer.parseInt(f[1]), Long.parseLong(f[2]));
            }
            return new Journal(uploadId, parts);
        }
    }
}
