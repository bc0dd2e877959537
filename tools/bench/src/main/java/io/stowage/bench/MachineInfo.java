package io.stowage.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * Describes where and with what a run happened: date, CPU, cores, load, Java, the reference tools' versions and
 * the stowage-store jar actually on the class path; produces Markdown bullet lines for docs/benchmarks/re-read.md.
 */
public final class MachineInfo {
    private MachineInfo() {
    }

    /** @return bullet lines, each ending in {@code \n} */
    public static String describe(BenchOptions options) {
        StringBuilder out = new StringBuilder();
        out.append("- date: ").append(ZonedDateTime.now(ZoneOffset.UTC)).append('\n');
        out.append("- cpu: ").append(cpuModel()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores seen by the JVM; load average ").append(loadAverage()).append('\n');
        out.append("- java: ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.runtime.version")).append('\n');
        out.append("- rclone: ").append(ExternalCommand.firstLine(List.of(options.rclone(), "version"))).append('\n');
        out.append("- aws: ").append(ExternalCommand.firstLine(List.of(options.aws(), "--version"))).append('\n');
        out.append("- openssl: ").append(ExternalCommand.firstLine(List.of(options.openssl(), "version"))).append('\n');
        out.append("- stowage-store: ").append(storeJar()).append("; read path: ").append(readPath()).append('\n');
        return out.toString();
    }

    /** @return the 1, 5 and 15 minute load averages from {@code /proc/loadavg} */
    public static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** @return whether the store on the class path has the parallel ranged-GET read (added in commit 76eb361) */
    private static String readPath() {
        try {
            Object tuning = Class.forName("io.stowage.store.s3.ReadTuning").getMethod("defaults").invoke(null);
            return "parallel ranged GETs, " + tuning;
        } catch (ReflectiveOperationException | LinkageError e) {
            return "one GET per object (no io.stowage.store.s3.ReadTuning)";
        }
    }

    /** Which build of the store was measured matters: its read path is being changed (parallel ranged GETs). */
    private static String storeJar() {
        try {
            Path jar = Path.of(io.stowage.store.ObjectReader.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI());
            Instant modified = Files.getLastModifiedTime(jar).toInstant();
            return jar + " (modified " + modified + ")";
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return "unknown (" + e + ")";
        }
    }
}
