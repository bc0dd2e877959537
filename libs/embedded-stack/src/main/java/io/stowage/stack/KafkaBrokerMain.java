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
     *             then any extra arguments for the storage format (e.g. {@code --add-scram ...}, the SCRAM broker);
     *             {@code @FILE} stands for the lines of FILE (kept off the command line: they may hold a password)
     */
    public static void main(String[] args) {
        java.util.List<String> format = new java.util.ArrayList<>(java.util.List.of("format", "--cluster-id", args[1],
                "--config", args[0], "--standalone", "--ignore-formatted"));
        for (String extra : java.util.Arrays.asList(args).subList(2, args.length)) {
            if (extra.startsWith("@")) {
                format.addAll(readLines(extra.substring(1)));
            } else {
                format.add(extra);
            }
        }
        int formatted = StorageTool.execute(format.toArray(String[]::new), System.out);
        if (formatted != 0) {
            System.err.println("kafka storage format failed with code " + formatted);
            System.exit(formatted);
        }
        kafka.Kafka.main(new String[] {args[0]});
    }

    private static java.util.List<String> readLines(String file) {
        try {
            return java.nio.file.Files.readAllLines(java.nio.file.Path.of(file));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the format arguments " + file, e);
        }
    }
}
