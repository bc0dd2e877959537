package io.stowage.uploader.app;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FilesInFlightTest {

    @Test
    void runsAtMostTheBoundAtOnceAndReturnsResultsInTaskOrder() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Integer> tasks = IntStream.range(0, 40).boxed().toList();
        try (FilesInFlight inFlight = new FilesInFlight(4)) {
            List<String> results = inFlight.runAll(tasks, t -> true, t -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                sleep(40 - t); // later tasks finish first
                running.decrementAndGet();
                return "r" + t;
            });
            assertThat(results).containsExactlyElementsOf(tasks.stream().map(t -> "r" + t).toList());
        }
        assertThat(most.get()).isEqualTo(4);
    }

    @Test
    void theBoundIsSharedByCallersAndTasksOutsideThePoolRunOnTheCallersThread() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Set<String> callerThreads = ConcurrentHashMap.newKeySet();
        List<String> largeRanOn = Collections.synchronizedList(new ArrayList<>());
        try (FilesInFlight inFlight = new FilesInFlight(3)) {
            CountDownLatch done = new CountDownLatch(2);
            List<Thread> callers = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                Thread caller = new Thread(() -> {
                    callerThreads.add(Thread.currentThread().getName());
                    inFlight.runAll(List.of(1, 2, 3, 4, 5, 1000), t -> t < 100, t -> {
                        if (t >= 100) {
                            largeRanOn.add(Thread.currentThread().getName());
                            return t;
                        }
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        sleep(30);
                        running.decrementAndGet();
                        return t;
                    });
                    done.countDown();
                }, "caller-" + c);
                callers.add(caller);
                caller.start();
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(most.get()).isEqualTo(3);
        assertThat(largeRanOn).hasSize(2).allSatisfy(name -> assertThat(callerThreads).contains(name));
    }

    @Test
    void aTaskThatThrowsIsRethrownOnlyAfterEveryOtherTaskEnded() {
        AtomicInteger ended = new AtomicInteger();
        try (FilesInFlight inFlight = new FilesInFlight(2)) {
            assertThatThrownBy(() -> inFlight.runAll(List.of(0, 1, 2, 3, 4), t -> true, t -> {
                if (t == 0) {
                    throw new IllegalStateException("task 0 broke");
                }
                sleep(50);
                return ended.incrementAndGet();
            })).isInstanceOf(IllegalStateException.class).hasMessage("task 0 broke");
        }
        assertThat(ended.get()).isEqualTo(4);
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> new FilesInFlight(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("files in flight must be at least 1, not 0");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
