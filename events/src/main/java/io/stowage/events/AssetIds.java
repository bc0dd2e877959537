package io.stowage.events;

/**
 * Asset identities: the Kafka record key of every event about an asset, so that all events of
 * one asset stay ordered on one partition. Shapes: {@code dataset/<name>/<revision>},
 * {@code checkpoint/<experiment>/<run>/<step, 12 digits>}, {@code release/<request id>}.
 */
public final class AssetIds {
    private AssetIds() {
    }

    /** @throws InvalidEventException when a name is not a valid key segment */
    public static String dataset(String name, String revision) {
        Validation.requireSegment("dataset", name);
        Validation.requireSegment("revision", revision);
        return "dataset/" + name + "/" + revision;
    }

    /** @throws InvalidEventException when a name is not a valid key segment or step is negative */
    public static String checkpoint(String experiment, String run, long step) {
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        return "checkpoint/" + experiment + "/" + run + "/" + ObjectKeys.paddedStep(step);
    }

    /**
     * @return {@code run/<experiment>/<run>}: a training run as a whole (the unit a milestone archive closes);
     *         its steps are the assets {@link #checkpoint} of that experiment and run
     * @throws InvalidEventException when a name is not a valid key segment
     */
    public static String run(String experiment, String run) {
        Validation.requireSegment("experiment", experiment);
        Validation.requireSegment("run", run);
        return "run/" + experiment + "/" + run;
    }

    /**
     * @param archivedAsset the asset a milestone archive closes ({@link #dataset} or {@link #run})
     * @return {@code archive/<archived asset>}: the key of the events about its archive, kept apart from the
     *         archived asset's own events so that archiving again reads the same events
     */
    public static String archive(String archivedAsset) {
        Validation.requireText("archivedAsset", archivedAsset);
        return "archive/" + archivedAsset;
    }

    /**
     * @return {@code baseline/<model>/<milestone>}: a hash-bound baseline archive of one directory
     *         ({@code stowage archive DIR --model M --milestone X})
     * @throws InvalidEventException when a name is not a valid key segment
     */
    public static String baseline(String model, String milestone) {
        Validation.requireSegment("model", model);
        Validation.requireSegment("milestone", milestone);
        return "baseline/" + model + "/" + milestone;
    }

    /**
     * @return {@code model/<model>/<revision>}: one published model revision, its files under
     *         {@code models/<model>/<revision>/} ({@link ObjectKeys#modelPrefix})
     * @throws InvalidEventException when a name is not a valid key segment
     */
    public static String model(String model, String revision) {
        Validation.requireSegment("model", model);
        Validation.requireSegment("revision", revision);
        return "model/" + model + "/" + revision;
    }

    /** @return the key of every event of one release request */
    public static String release(String requestId) {
        Validation.requireText("requestId", requestId);
        return "release/" + requestId;
    }

    /** @return the key of every event about one provider volume: {@code volume/<volume id>} */
    public static String volume(String volumeId) {
        Validation.requireText("volumeId", volumeId);
        return "volume/" + volumeId;
    }

    /** @return the key of every event about one provider pod: {@code pod/<pod id>} */
    public static String pod(String podId) {
        Validation.requireText("podId", podId);
        return "pod/" + podId;
    }

    /** @return "dataset", "checkpoint", "release", ... : the part before the first '/' */
    public static String kindOf(String assetId) {
        int slash = assetId.indexOf('/');
        return slash < 0 ? assetId : assetId.substring(0, slash);
    }
}
