package io.stowage.bench;

/** One way of reading a whole {@link InputSet} back from the store and checking it; produces the CPU time it used. */
public interface Contender {

    /** @return the name shown in the table, e.g. {@code rclone check --download} */
    String name();

    /**
     * Reads every object of {@code set} from the bucket in full and checks it against the local copy or its
     * SHA-256.
     *
     * @return CPU seconds (user + system) the reading side used: this JVM's for Stowage, the child processes'
     *         for the external tools; the S3 server's CPU is counted for none
     * @throws Exception when a read fails or an object does not match: the figures of a wrong read are worthless
     */
    double readAll(InputSet set) throws Exception;
}
