package io.stowage.bench.e2e;

/**
 * One flow's figures from one run: Stowage and the reference on the same input, in the same run.
 *
 * @param flow          what was timed, e.g. {@code checkpoint publish 1 x 1024 MiB -> verified}
 * @param bytes         input bytes
 * @param stowage       seconds from the command to "verified in the ledger" (or to deleted, for a release)
 * @param reference     seconds the reference tools took on the same input
 * @param stowageCpu    CPU seconds of the CLI and the six service JVMs during the flow
 * @param referenceCpu  CPU seconds of the reference tools (bash {@code times} of their children)
 * @param goal          the ratio reference / Stowage the flow should reach
 * @param loadBefore    the 1-minute load average just before the flow
 */
record Figure(String flow, long bytes, double stowage, double reference, double stowageCpu, double referenceCpu,
              double goal, String loadBefore) {

    /** @return reference seconds / Stowage seconds: above 1 means Stowage was faster */
    double ratio() {
        return reference / stowage;
    }

    /** @return one Markdown table row */
    String row() {
        double gib = bytes / (double) (1L << 30);
        return String.format("| %s | %.2f s | %.2f s | %.2fx | >= %.1fx %s | %.2f | %.2f | %s |", flow, stowage, reference,
                ratio(), goal, ratio() >= goal ? "met" : "MISSED", stowageCpu / gib, referenceCpu / gib, loadBefore);
    }

    /** @return the Markdown table header that {@link #row()} fits */
    static String header() {
        return "| flow | Stowage | reference | ratio | goal | Stowage CPU s/GiB | reference CPU s/GiB | load before |\n"
                + "|---|---|---|---|---|---|---|---|";
    }
}
