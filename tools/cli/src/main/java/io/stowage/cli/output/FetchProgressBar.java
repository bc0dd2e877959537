package io.stowage.cli.output;

import io.stowage.cli.ByteCount;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.prefetch.FetchListener;
import io.stowage.prefetch.ShardFailure;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows a running {@code dataset fetch} on standard error: on a terminal one redrawn line
 * {@code [#####.....] 1.20 GiB / 2.00 GiB  118.3 MiB/s  ETA 0:07  shards 5/8} (at most every 200 ms); elsewhere one
 * line per shard. Bytes per second count only bytes received from the store in this run; cached shards count as done.
 * Silent with {@code --json}, apart from retries and failures.
 */
public final class FetchProgressBar implements FetchListener {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;
    private final PrintStream err;
    private final boolean terminal;
    private final boolean quiet;
    private final long totalBytes;
    private final int totalShards;
    private final long started = System.nanoTime();
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong shardsDone = new AtomicLong();
    private long lastDraw;

    /**
     * @param totalBytes  bytes of every shard of the revision
     * @param totalShards shards of the revision
     * @param terminal    true to redraw one line ({@code System.console() != null})
     * @param quiet       true for {@code --json}
     */
    public FetchProgressBar(PrintStream err, long totalBytes, int totalShards, boolean terminal, boolean quiet) {
        this.err = err;
        this.totalBytes = totalBytes;
        this.totalShards = totalShards;
        this.terminal = terminal;
        this.quiet = quiet;
    }

    @Override
    public void bytesReceived(long bytes) {
        received.addAndGet(bytes);
        done.addAndGet(bytes);
        redraw(false);
    }

    @Override
    public void shardCached(ShardEntry shard) {
        done.addAndGet(shard.bytes());
        shardsDone.incrementAndGet();
        line("shard " + shard.index() + " already cached and verified (" + ByteCount.human(shard.bytes()) + ")");
    }

    @Override
    public void shardFetched(ShardEntry shard, int attempts) {
        shardsDone.incrementAndGet();
        line("shard " + shard.index() + " fetched, SHA-256 verified (" + ByteCount.human(shard.bytes()) + ")");
        redraw(true);
    }

    @Override
    public synchronized void shardRetried(ShardEntry shard, String reason) {
        done.addAndGet(-shard.bytes()); // approximately: its bytes come again
        clearLine();
        err.println("warning: shard " + shard.index() + " (" + shard.key() + "): " + reason + "; retrying once");
    }

    @Override
    public synchronized void shardFailed(ShardFailure failure) {
        clearLine();
        err.println("error: shard " + failure.index() + " (" + failure.key() + ") failed twice: " + failure.reason()
                + "; nothing of it was kept");
    }

    /** Ends the redrawn line. */
    public synchronized void finish() {
        if (terminal && !quiet) {
            redraw(true);
            err.println();
        }
    }

    private synchronized void line(String text) {
        if (!quiet && !terminal) {
            err.println("    " + text);
        }
    }

    private synchronized void clearLine() {
        if (terminal && !quiet) {
            err.print("\r\033[K");
        }
    }

    private synchronized void redraw(boolean force) {
        if (!terminal || quiet) {
            return;
        }
        long now = System.nanoTime();
        if (!force && now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        err.print("\r\033[K" + render(done.get(), received.get(), (now - started) / 1e9));
        err.flush();
    }

    /** @return the bar for {@code doneBytes} of the total, at the rate of {@code receivedBytes} over {@code seconds} */
    String render(long doneBytes, long receivedBytes, double seconds) {
        long shown = Math.max(0, Math.min(doneBytes, totalBytes));
        int filled = totalBytes == 0 ? WIDTH : (int) (WIDTH * shown / totalBytes);
        double rate = seconds > 0 ? receivedBytes / seconds : 0;
        String eta = rate > 0 ? clock(Duration.ofSeconds((long) Math.ceil((totalBytes - shown) / rate))) : "--:--";
        return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + ByteCount.human(shown) + " / "
                + ByteCount.human(totalBytes) + "  " + ByteCount.human((long) rate) + "/s  ETA " + eta + "  shards "
                + shardsDone.get() + "/" + totalShards;
    }

    private static String clock(Duration d) {
        long h = d.toHours();
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, d.toMinutesPart(), d.toSecondsPart())
                : String.format(Locale.ROOT, "%d:%02d", d.toMinutesPart(), d.toSecondsPart());
    }
}
