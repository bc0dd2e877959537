package io.stowage.bench;

import io.stowage.store.ObjectWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Consumes an {@link InputSet} and the store's {@link ObjectWriter}; produces the set's objects in the bucket,
 * each put with its SHA-256 as the writer does for real uploads, {@code parallelism} at a time.
 */
public final class InputUpload {
    private InputUpload() {
    }

    /**
     * @return seconds the upload took (wall clock; printed for information, not part of the comparison)
     * @throws Exception the first failure of a put
     */
    public static double putAll(ObjectWriter writer, InputSet set, int parallelism) throws Exception {
        long started = System.nanoTime();
        ExecutorService workers = Executors.newFixedThreadPool(parallelism);
        try {
            List<Future<?>> puts = new ArrayList<>();
            for (BenchObject object : set.objects()) {
                puts.add(workers.submit(() -> writer.put(object.key(), object.file(), object.bytes(), object.sha256(),
                        Map.of("origin", "stowage-bench"))));
            }
            for (Future<?> put : puts) {
                put.get();
            }
        } finally {
            workers.shutdownNow();
        }
        return (System.nanoTime() - started) / 1e9;
    }
}
