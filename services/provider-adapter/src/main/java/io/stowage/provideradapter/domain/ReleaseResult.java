package io.stowage.provideradapter.domain;

/**
 * What a {@link ReleaseProvider} did with one approved release.
 *
 * @param released   true when the directory is gone
 * @param fileCount  regular files deleted (0 when refused)
 * @param totalBytes bytes freed (0 when refused)
 * @param reason     one line saying why nothing (or, if it says so, only part) was deleted; null when released
 */
public record ReleaseResult(boolean released, int fileCount, long totalBytes, String reason) {

    /** @return a completed release */
    public static ReleaseResult released(int fileCount, long totalBytes) {
        return new ReleaseResult(true, fileCount, totalBytes, null);
    }

    /** @return a refusal with a one-line reason */
    public static ReleaseResult refused(String reason) {
        return new ReleaseResult(false, 0, 0, reason.replaceAll("[\\r\\n]+", " "));
    }
}
