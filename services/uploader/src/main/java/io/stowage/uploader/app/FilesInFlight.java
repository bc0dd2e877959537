package io.stowage.uploader.app;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs the tasks of one event with a bound on how many run at once: tasks that {@code shared} accepts go to a pool of
 * {@code threads} threads shared by every caller (so the bound holds across events), the others run one after another
 * on the caller's thread while the shared ones are in flight. Results come back in the order of the tasks.
 */
final class FilesInFlight implements AutoCloseable {
    private final ExecutorService pool;

    /** @param threads tasks run at once in the shared pool, at least 1 */
    FilesInFlight(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("files in flight must be at least 1, not " + threads);
        }
        AtomicInteger number = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread thread = new Thread(r, "upload-file-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * @param tasks  what to run, in order
     * @param shared which tasks may run in the shared pool (the others run on the calling thread)
     * @param run    runs one task; should not throw (an exception is rethrown here once every task has ended)
     * @return one result per task, in task order
     * @throws IllegalStateException when interrupted while waiting; tasks already started still finish
     */
    <T, R> List<R> runAll(List<T> tasks, Predicate<T> shared, Function<T, R> run) {
        List<Future<R>> inPool = new ArrayList<>();
        for (T task : tasks) {
            inPool.add(shared.test(task) ? pool.submit(() -> run.apply(task)) : null);
        }
        List<R> results = new ArrayList<>(tasks.size());
        RuntimeException failure = null;
        for (int i = 0; i < tasks.size(); i++) {
            results.add(null);
            if (inPool.get(i) == null) {
                try {
                    results.set(i, run.apply(tasks.get(i)));
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        for (int i = 0; i < tasks.size(); i++) {
            if (inPool.get(i) != null) {
                try {
                    results.set(i, inPool.get(i).get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while uploading", e);
                } catch (ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException r ? r
                            : new IllegalStateException(e.getCause());
                    failure = failure == null ? cause : failure;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    @Override
    public void close() {
        pool.shutdown();
    }
}
