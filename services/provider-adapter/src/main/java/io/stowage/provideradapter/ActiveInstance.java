package io.stowage.provideradapter;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * One active provider-adapter per state directory; any other instance started on the same directory is a standby.
 * <p>
 * The provider-adapter's state (release journal, retention journal and schedules, volume and pod records) lives in
 * {@code stowage.provider-adapter.state-dir}, loaded at start and written by one process: two processes acting on it
 * could execute one release twice. So before anything else of the service starts (this observer runs first among the
 * start-up observers, before the Kafka channels, the journals' recovery, the sweeps and the HTTP server), the instance
 * takes an exclusive lock on {@code <state-dir>/active.lock} ({@link FileChannel#tryLock()}: an {@code fcntl} lock the
 * kernel releases when the process ends, also by {@code SIGKILL} or out of memory) and holds it until it exits. While
 * another process holds it, the instance logs {@value #STANDBY_LINE} once, every {@value #POLL_MILLIS} ms tries again,
 * and meanwhile joins no consumer group, answers no HTTP and touches no state; it then logs {@value #ACTIVE_LINE} and
 * starts as a single instance does, finishing what the one before left in its journals. A paused ({@code SIGSTOP})
 * active instance keeps its lock: the standby waits rather than act beside it.
 * <p>
 * A standby asked to stop ({@code SIGTERM}) exits at once with code 143: it holds nothing to close. The lock is
 * advisory and local: the state directory must be on a local filesystem shared by the instances of one host (NFS
 * locks are not relied on).
 */
@ApplicationScoped
public class ActiveInstance {
    /** The line a standby logs (once) while another instance holds the lock; {@code stowage up} waits for it or for ready. */
    public static final String STANDBY_LINE = "provider-adapter standby: another instance holds the state directory";
    /** The line an instance logs once it holds the lock. */
    public static final String ACTIVE_LINE = "provider-adapter active: holding the state directory";
    /** The lock file's name in the state directory. */
    public static final String LOCK_FILE = "active.lock";
    private static final long POLL_MILLIS = 200;
    private static final Logger LOG = Logger.getLogger(ActiveInstance.class);

    private volatile boolean active;
    /** Open for the life of the process: a channel that is closed (or collected) may drop the process's lock. */
    private FileChannel channel;
    private FileLock lock;

    /**
     * Blocks start-up until this process holds {@code <state-dir>/active.lock}. Priority 1: before every other start-up
     * observer of the service and of the libraries (Kafka channels start at 1000).
     *
     * @throws IllegalStateException when the state directory is not set
     * @throws UncheckedIOException  when the lock file cannot be opened or locked: the service does not start
     */
    void hold(@Observes @Priority(1) StartupEvent start, ProviderAdapterConfig config) {
        Path dir = ProviderAdapterConfig.requiredStateDir(config);
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(LOCK_FILE).toAbsolutePath().normalize();
            // kept open for the life of the process: the kernel releases the lock at exit, never earlier, so no
            // deletion of a stopping instance can overlap its successor's
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                lock = channel.tryLock();
            } catch (java.nio.channels.OverlappingFileLockException heldHere) {
                // this process holds it already: an application started again in the same JVM (tests). The channel
                // stays open: on Linux closing any descriptor of the file drops every lock the process has on it
                active = true;
                LOG.infof("%s %s (%s, pid %d, held since an earlier start in this process)", ACTIVE_LINE, dir, file,
                        ProcessHandle.current().pid());
                return;
            }
            if (lock == null) {
                LOG.infof("%s %s (%s is locked); waiting to take over, polling every %d ms", STANDBY_LINE, dir, file,
                        POLL_MILLIS);
                Thread exitWhileStandby = new Thread(() -> {
                    if (!active) {
                        Runtime.getRuntime().halt(143);
                    }
                }, "provider-adapter-standby-exit");
                Runtime.getRuntime().addShutdownHook(exitWhileStandby);
                long waited = System.nanoTime();
                while (lock == null) {
                    Thread.sleep(POLL_MILLIS);
                    lock = channel.tryLock();
                }
                LOG.infof("the active provider-adapter released %s after %s of standby", file,
                        Duration.ofNanos(System.nanoTime() - waited));
            }
            active = true;
            LOG.infof("%s %s (%s, pid %d)", ACTIVE_LINE, dir, file, ProcessHandle.current().pid());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + dir.resolve(LOCK_FILE) + " of stowage.provider-adapter.state-dir", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + dir.resolve(LOCK_FILE), e);
        }
    }
}
