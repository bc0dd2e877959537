package io.stowage.bench.ledger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU seconds (user + system) used so far by one process, or by a process and its direct children (the
 * PostgreSQL postmaster and its backends), from {@code /proc/<pid>/stat}. On a machine shared with other work,
 * events per CPU-second is the figure that does not depend on the load; elapsed-time rates do.
 */
public final class CpuTime {
    private static final double TICKS = 100.0; // USER_HZ on Linux

    private CpuTime() {
    }

    /** @return CPU seconds of {@code pid}, 0 when it is gone */
    public static double of(long pid) {
        String[] f = fields(Path.of("/proc", String.valueOf(pid), "stat"));
        return f == null ? 0 : (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
    }

    /** @return CPU seconds of {@code pid} and every live process whose parent it is */
    static double withChildren(long pid) {
        double total = of(pid);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                String[] f = fields(p.resolve("stat"));
                if (f != null && Long.parseLong(f[1]) == pid) {
                    total += (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
                }
            }
        } catch (IOException e) {
            return total;
        }
        return total;
    }

    // fields after the ")" that ends the command name: [0] = state, [1] = ppid, [11] = utime, [12] = stime
    private static String[] fields(Path stat) {
        try {
            String text = Files.readString(stat);
            return text.substring(text.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return the pid of the postmaster whose data directory is {@code dataDir} (first line of postmaster.pid) */
    static long postmaster(Path dataDir) throws IOException {
        return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
    }
}
