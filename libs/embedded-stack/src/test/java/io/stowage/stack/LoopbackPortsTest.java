package io.stowage.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A port picked for a child server must not be one the kernel can give an outgoing connection before the child
 * binds it: the uploader once failed to start with "Port 37113 seems to be in use" while its own Kafka
 * consumers were connecting.
 */
class LoopbackPortsTest {

    @Test
    void portsComeFromBelowTheEphemeralRangeAreBindableAndNeverRepeat() throws Exception {
        int ephemeralLow = LoopbackPorts.firstEphemeralPort();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = LoopbackPorts.pick();
            assertThat(port).isBetween(LoopbackPorts.LOWEST, ephemeralLow - 1);
            assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
        }
        int port = LoopbackPorts.pick();
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertThat(server.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void noPickedPortIsOneAnOutgoingConnectionHolds() throws Exception {
        // open many client connections: each takes a local port from the ephemeral range
        try (ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
            List<Socket> clients = new ArrayList<>();
            Set<Integer> local = new HashSet<>();
            try {
                for (int i = 0; i < 100; i++) {
                    Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                    clients.add(client);
                    local.add(client.getLocalPort());
                }
                for (int i = 0; i < 100; i++) {
                    assertThat(local).doesNotContain(LoopbackPorts.pick());
                }
                assertThat(local).allSatisfy(p -> assertThat(p).isGreaterThanOrEqualTo(LoopbackPorts.firstEphemeralPort()));
            } finally {
                for (Socket client : clients) {
                    client.close();
                }
            }
        }
    }
}
