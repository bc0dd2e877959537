package io.stowage.cli.platform;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One service of a running {@code stowage up} as {@code stowage status} shows it: its health, asked of its
 * {@code /q/health} now, and what supervision recorded ({@link SupervisedService}).
 *
 * @param name         the service
 * @param url          its base URL
 * @param health       {@code UP} (health 200), {@code DOWN} (any other answer), {@code STANDBY} (a provider-adapter
 *                     instance that does not listen because another process holds its state directory's
 *                     {@code active.lock}, as {@code /proc/locks} shows) or {@code UNREACHABLE} (no answer in 3 s)
 * @param pid          its process id, null while it is being restarted or when supervision is unknown
 * @param state        {@code running}, {@code restarting}, or {@code unknown} (no {@code services.json})
 * @param restarts     restarts by supervision since {@code stowage up}, or 0 when unknown
 * @param lastRestart  when it was last restarted, or null
 * @param lastExitCode exit code of its last unexpected exit, or null
 */
public record ServiceHealth(String name, String url, String health, Long pid, String state, int restarts,
                            Instant lastRestart, Integer lastExitCode) {
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    /**
     * @param stateRoot {@code $STOWAGE_HOME/state}, where each standby service's state directory (with its
     *                  {@code active.lock}) is
     * @return every service of {@code session} in its order, probed now, with supervision's record where there is one
     */
    public static List<ServiceHealth> of(Session session, Optional<SupervisionState> supervision, Path stateRoot) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        List<ServiceHealth> out = new ArrayList<>();
        session.services().forEach((name, url) -> {
            Optional<SupervisedService> s = supervision.flatMap(state -> state.service(name));
            String health = probe(http, url);
            Long pid = s.map(SupervisedService::pid).orElse(null);
            if (health.equals("UNREACHABLE") && pid != null && standby(name, pid, stateRoot)) {
                health = "STANDBY";
            }
            out.add(new ServiceHealth(name, url, health, pid,
                    s.map(SupervisedService::state).orElse("unknown"), s.map(SupervisedService::restarts).orElse(0),
                    s.map(SupervisedService::lastRestart).orElse(null), s.map(SupervisedService::lastExitCode).orElse(null)));
        });
        return out;
    }

    /**
     * @return the stack's servers ({@code kafka}, {@code s3proxy}, {@code postgres}), each probed now by a TCP connect
     *         to its address ({@code UP} when it accepts, {@code UNREACHABLE} otherwise), with supervision's record
     *         where there is one; {@code url} is {@code tcp://host:port}
     */
    public static List<ServiceHealth> servers(Session session, Optional<SupervisionState> supervision) {
        io.stowage.stack.StackEndpoints stack = session.stack();
        java.util.Map<String, String> addresses = new java.util.LinkedHashMap<>();
        addresses.put("kafka", stack.kafkaBootstrapServers().split(",")[0]);
        addresses.put("s3proxy", URI.create(stack.s3Endpoint()).getAuthority());
        addresses.put("postgres", URI.create(stack.pgJdbcUrl().substring("jdbc:".length())).getAuthority());
        List<ServiceHealth> out = new ArrayList<>();
        addresses.forEach((name, address) -> {
            Optional<SupervisedService> s = supervision.flatMap(state -> state.service(name));
            out.add(new ServiceHealth(name, "tcp://" + address, connects(address) ? "UP" : "UNREACHABLE",
                    s.map(SupervisedService::pid).orElse(null), s.map(SupervisedService::state).orElse("unknown"),
                    s.map(SupervisedService::restarts).orElse(0), s.map(SupervisedService::lastRestart).orElse(null),
                    s.map(SupervisedService::lastExitCode).orElse(null)));
        });
        return out;
    }

    /**
     * @return true when {@code name} is an instance of a {@link ServiceLauncher#STANDBY_SERVICES} service, process
     *         {@code pid} is alive, and another process holds the lock on {@code <stateRoot>/<service>/active.lock}
     */
    public static boolean standby(String name, long pid, Path stateRoot) {
        Optional<String> service = ServiceLauncher.serviceOf(name).filter(ServiceLauncher.STANDBY_SERVICES::contains);
        if (service.isEmpty() || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        return lockHolder(stateRoot.resolve(service.get()).resolve("active.lock"), Path.of("/proc/locks"))
                .map(holder -> holder != pid).orElse(false);
    }

    /**
     * @param locks the kernel's lock table ({@code /proc/locks}: {@code 1: POSIX  ADVISORY  WRITE <pid>
     *              <major>:<minor>:<inode> 0 EOF} per lock)
     * @return the process id holding a lock on {@code file}'s inode; empty when none does or either cannot be read
     */
    static Optional<Long> lockHolder(Path file, Path locks) {
        try {
            long inode = ((Number) java.nio.file.Files.getAttribute(file, "unix:ino")).longValue();
            for (String line : java.nio.file.Files.readAllLines(locks)) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 6 && !f[1].equals("->") && f[5].endsWith(":" + inode)) {
                    return Optional.of(Long.parseLong(f[4]));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static boolean connects(String address) {
        return connects(address, TIMEOUT);
    }

    /**
     * @param address {@code host:port}
     * @return true when a TCP connection to it is accepted within {@code timeout}
     */
    static boolean connects(String address, Duration timeout) {
        int colon = address.lastIndexOf(':');
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1))), (int) timeout.toMillis());
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String probe(HttpClient http, String url) {
        try {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(url + "/q/health")).timeout(TIMEOUT)
                    .build(), HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200 ? "UP" : "DOWN";
        } catch (IOException e) {
            return "UNREACHABLE";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "UNREACHABLE";
        }
    }

    /** @return one line, e.g. {@code uploader            UP  pid 4242  restarts 1, last 2026-12-01T17:20:00Z (exit 137)} */
    public String line() {
        String head = String.format(Locale.ROOT, "  %-19s %-11s %s  restarts %d", name, health,
                pid == null ? state : "pid " + pid, restarts);
        if (lastRestart == null) {
            return head;
        }
        return head + ", last " + lastRestart + (lastExitCode == null ? "" : " (exit " + lastExitCode + ")");
    }
}
