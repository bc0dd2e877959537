package io.stowage.uploader.domain;

/**
 * An event whose files cannot be planned for upload (a checkpoint manifest that is missing,
 * changed or does not describe the event's step); reported as a permanent upload failure.
 */
public class PlanRefusedException extends RuntimeException {
    private final String localPath;

    /** @param localPath the file at fault (e.g. the manifest) */
    public PlanRefusedException(String localPath, String reason) {
        super(reason);
        this.localPath = localPath;
    }

    /** @return the file at fault */
    public String localPath() {
        return localPath;
    }
}
