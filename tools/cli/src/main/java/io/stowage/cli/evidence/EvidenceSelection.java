package io.stowage.cli.evidence;

import io.stowage.cli.CliException;
import io.stowage.cli.NameArguments;

/**
 * Which ledger assets an export covers, from {@code --dataset NAME[/REVISION]} and {@code --run EXPERIMENT/RUN}:
 * with neither, every dataset revision, checkpoint step and model revision; with one or both, the assets either
 * names (a dataset's every revision, or one; every step of one run).
 *
 * @param datasetPrefix {@code dataset/NAME/} or the exact {@code dataset/NAME/REVISION}, null when not asked
 * @param runPrefix     {@code checkpoint/EXPERIMENT/RUN/}, null when not asked
 */
public record EvidenceSelection(String datasetPrefix, String runPrefix) {

    /**
     * @param dataset {@code NAME} or {@code NAME/REVISION}, or null
     * @param run     {@code EXPERIMENT/RUN}, or null
     * @throws CliException (exit 2) when a name is not a valid key segment or a value has the wrong number of parts
     */
    public static EvidenceSelection of(String dataset, String run) {
        return new EvidenceSelection(dataset == null ? null : datasetPrefix(dataset), run == null ? null : runPrefix(run));
    }

    /** @return true when the asset {@code assetId} of kind {@code kind} is to be exported */
    public boolean covers(String assetId, String kind) {
        if (!EvidenceAllowList.KINDS.contains(kind)) {
            return false;
        }
        if (datasetPrefix == null && runPrefix == null) {
            return true;
        }
        return (datasetPrefix != null && (datasetPrefix.endsWith("/") ? assetId.startsWith(datasetPrefix) : assetId.equals(datasetPrefix)))
                || (runPrefix != null && assetId.startsWith(runPrefix));
    }

    /** @return what was asked for, for a message: e.g. {@code --dataset speech/r1} */
    public String describe() {
        if (datasetPrefix == null && runPrefix == null) {
            return "any dataset, checkpoint or model";
        }
        StringBuilder text = new StringBuilder();
        if (datasetPrefix != null) {
            text.append(datasetPrefix.endsWith("/") ? datasetPrefix + "*" : datasetPrefix);
        }
        if (runPrefix != null) {
            text.append(text.isEmpty() ? "" : " or ").append(runPrefix).append('*');
        }
        return text.toString();
    }

    private static String datasetPrefix(String value) {
        String[] parts = value.split("/", -1);
        if (parts.length > 2) {
            throw new CliException(CliException.USAGE, "--dataset '" + value + "' must be NAME or NAME/REVISION");
        }
        NameArguments.require("--dataset", parts[0]);
        if (parts.length == 1) {
            return "dataset/" + parts[0] + "/";
        }
        NameArguments.require("--dataset revision", parts[1]);
        return "dataset/" + parts[0] + "/" + parts[1];
    }

    private static String runPrefix(String value) {
        String[] parts = value.split("/", -1);
        if (parts.length != 2) {
            throw new CliException(CliException.USAGE, "--run '" + value + "' must be EXPERIMENT/RUN");
        }
        NameArguments.require("--run experiment", parts[0]);
        NameArguments.require("--run run", parts[1]);
        return "checkpoint/" + parts[0] + "/" + parts[1] + "/";
    }
}
