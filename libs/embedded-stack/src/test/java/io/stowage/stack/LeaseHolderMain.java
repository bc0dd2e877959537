package io.stowage.stack;

import io.stowage.messaging.ClusterLease;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A cluster lease in a process of its own, so that a test can pause it with SIGSTOP: args are the lease's name, its
 * group and a properties file with the Kafka connection; prints {@code <epoch millis> <state>} every 20 ms until killed.
 */
public final class LeaseHolderMain {
    private LeaseHolderMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Properties login = new Properties();
        try (FileInputStream in = new FileInputStream(args[2])) {
            login.load(in);
        }
        Map<String, Object> kafka = new HashMap<>();
        login.forEach((k, v) -> kafka.put((String) k, v));
        ClusterLease lease = ClusterLease.of(args[0], args[1], kafka).start();
        while (true) {
            System.out.println(System.currentTimeMillis() + " " + lease.state());
            System.out.flush();
            Thread.sleep(20);
        }
    }
}
