package io.stowage.store.s3;

import io.stowage.store.PutResult;
import io.stowage.store.StoreConfig;
import io.stowage.store.UploadObserver;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A separate JVM that uploads one file with {@link S3ObjectStore#put} and reports on stdout, so that a
 * test can kill it with SIGKILL mid-upload and start it again: {@code STARTED <uploadId> <resumed>
 * <confirmed>}, {@code SENT <part>} after each part the store confirmed and the journal recorded, and
 * {@code DONE <etag> <sha256>}. It slows itself down by {@code pauseMillis} before each part, so that a
 * kill lands mid-upload on a fast loopback store. Store settings come from the environment
 * ({@code S3_ENDPOINT}, {@code S3_REGION}, {@code S3_BUCKET}, {@code S3_ACCESS_KEY}, {@code S3_SECRET_KEY}).
 *
 * <p>Arguments: key, file, bytes, sha256, journalDir, partSize, partsInFlight, pauseMillis.
 */
public final class UploadChild {
    private UploadChild() {
    }

    public static void main(String[] args) throws Exception {
        String key = args[0];
        Path file = Path.of(args[1]);
        long bytes = Long.parseLong(args[2]);
        String sha256 = args[3];
        Path journalDir = Path.of(args[4]);
        int partSize = Integer.parseInt(args[5]);
        int inFlight = Integer.parseInt(args[6]);
        long pauseNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[7]));
        StoreConfig config = new StoreConfig("primary", URI.create(System.getenv("S3_ENDPOINT")),
                System.getenv("S3_REGION"), System.getenv("S3_BUCKET"), System.getenv("S3_ACCESS_KEY"),
                System.getenv("S3_SECRET_KEY"));
        UploadObserver observer = new UploadObserver() {
            @Override
            public void started(String key, String uploadId, boolean resumed, int confirmed) {
                say("STARTED " + uploadId + " " + resumed + " " + confirmed);
            }

            @Override
            public void beforePart(String key, String uploadId, int partNumber) {
                LockSupport.parkNanos(pauseNanos);
            }

            @Override
            public void partSent(String key, String uploadId, int partNumber, long partBytes) {
                say("SENT " + partNumber + " " + partBytes);
            }
        };
        try (S3ObjectStore store = new S3ObjectStore(config, new UploadTuning(UploadTuning.MIN_PART_SIZE, partSize,
                inFlight), ReadTuning.defaults(), journalDir, observer, Clock.systemUTC())) {
            PutResult result = store.put(key, file, bytes, sha256, Map.of("kind", "CHECKPOINT_FILE"));
            say("DONE " + result.etag() + " " + result.sha256() + " " + Files.exists(store.journalFile(key)));
        }
        System.exit(0);
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
