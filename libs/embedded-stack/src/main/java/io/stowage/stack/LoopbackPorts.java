package io.stowage.stack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks TCP ports on 127.0.0.1 for servers that another process binds later (a service started with
 * {@code QUARKUS_HTTP_PORT}, a broker, a store).
 *
 * <p>A port taken with {@code new ServerSocket(0)} comes from the kernel's ephemeral range, the same range the
 * kernel hands to every outgoing connection. Between the pick and the child's bind, seconds apart while a JVM
 * boots, one of the many client connections on the machine (Kafka consumers, HTTP clients) can be given that
 * very port as its local port, and the child then fails with "address already in use". So the ports here come
 * from below the ephemeral range, which outgoing connections never use: a random port in
 * {@code [10000, first ephemeral port)}, checked free by binding it, and never handed out twice by this JVM.
 * The ephemeral range is read from {@code /proc/sys/net/ipv4/ip_local_port_range} (Linux; 32768 60999 when
 * unreadable). When that range leaves fewer than 1000 ports below it, the kernel's own pick is used.
 */
public final class LoopbackPorts {

    /** The lowest port picked: above the registered ports most local daemons listen on. */
    static final int LOWEST = 10_000;

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int ATTEMPTS = 200;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private LoopbackPorts() {
    }

    /**
     * @return a port on 127.0.0.1 that was free a moment ago, outside the kernel's ephemeral range when it can be,
     *         and not returned before by this JVM
     * @throws IOException when no such port can be bound
     */
    public static synchronized int pick() throws IOException {
        int ephemeralLow = firstEphemeralPort();
        if (ephemeralLow - LOWEST >= 1000) {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, ephemeralLow);
                if (!HANDED_OUT.contains(port) && bindable(port)) {
                    HANDED_OUT.add(port);
                    return port;
                }
            }
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            }
        }
        throw new IOException("no free TCP port on 127.0.0.1 after " + ATTEMPTS + " attempts");
    }

    /**
     * @return the first port of the kernel's ephemeral range (Linux's {@code ip_local_port_range}); 32768, the
     *         Linux default, when the file is absent or unreadable
     */
    static int firstEphemeralPort() {
        // read line by line: /proc reports a size of 0, and Files.readString on JDK 17 returns one byte of it
        try (java.io.BufferedReader reader = Files.newBufferedReader(RANGE)) {
            String line = reader.readLine();
            int first = Integer.parseInt(line.trim().split("\\s+")[0]);
            return first >= 1024 && first <= 65_535 ? first : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            // no SO_REUSEADDR: a port in TIME_WAIT is not offered, as a server without it could not bind it either
            socket.setReuseAddress(false);
            socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
