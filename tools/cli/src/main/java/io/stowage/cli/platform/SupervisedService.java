package io.stowage.cli.platform;

import java.time.Instant;

/**
 * What supervision knows of one service of a running {@code stowage up}, as written to {@code services.json}.
 *
 * @param name         the service, e.g. {@code uploader}
 * @param pid          its current process id, or null while it is being restarted
 * @param state        {@code running} or {@code restarting} (exited, waiting for its backoff or for start-up)
 * @param restarts     how many times supervision started it again after it exited (0 after {@code stowage up})
 * @param lastRestart  when supervision last started it again, or null
 * @param lastExitCode exit code of its last unexpected exit (137 for SIGKILL, 143 for SIGTERM), or null
 */
public record SupervisedService(String name, Long pid, String state, int restarts, Instant lastRestart,
                                Integer lastExitCode) {
    public static final String RUNNING = "running";
    public static final String RESTARTING = "restarting";
}
