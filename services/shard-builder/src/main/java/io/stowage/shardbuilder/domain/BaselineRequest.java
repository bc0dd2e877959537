package io.stowage.shardbuilder.domain;

import java.nio.file.Path;

/**
 * What to archive as a hash-bound baseline and where to stage it.
 *
 * @param dir        the directory to archive (absolute)
 * @param model      model name (key segment, {@code Validation.segmentProblem})
 * @param milestone  milestone name (key segment)
 * @param stagingDir staging root; files go under {@code <stagingDir>/archives/baselines/<model>/<milestone>/}
 */
public record BaselineRequest(Path dir, String model, String milestone, Path stagingDir) {
}
