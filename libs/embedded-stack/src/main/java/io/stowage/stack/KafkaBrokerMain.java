package io.stowage.stack;

import kafka.tools.StorageTool;

/**
 * Entry point of the child JVM that runs the Kafka broker: consumes a {@code server.properties} file
 * and a cluster id, formats the KRaft storage (standalone controller quorum; a formatted directory is
 * kept) and runs a combined broker and controller ({@code kafka.Kafka}, i.e. {@code KafkaRaftServer})
 * until the process is terminated.
 */
public final class KafkaBrokerMain {
    private KafkaBrokerMain() {
    }

    /**
     * @param args {@code [0]} the server.properties path, {@code [1]} the cluster id (22 characters, base64 UUID),
     *             then any extra arguments for the storage format (e.g. {@code --add-scram ...}, the SCRAM test)
     */
    public static void main(String[] args) {
        java.util.List<String> format = new java.util.ArrayList<>(java.util.List.of("format", "--cluster-id", args[1],
                "--config", args[0], "--standalone", "--ignore-formatted"));
        format.addAll(java.util.Arrays.asList(args).subList(2, args.length));
        int formatted = StorageTool.execute(format.toArray(String[]::new), System.out);
        if (formatted != 0) {
            System.err.println("kafka storage format failed with code " + formatted);
            System.exit(formatted);
        }
        kafka.Kafka.main(new String[] {args[0]});
    }
}
