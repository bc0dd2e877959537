package io.stowage.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rclone reference: consumes an {@link InputSet} and runs {@code rclone check --download DIR s3:BUCKET/PREFIX},
 * which downloads every object and compares it byte for byte with the local copy (no hash), with rclone's
 * defaults (8 checkers). The remote {@code s3} is defined by {@code RCLONE_CONFIG_S3_*} environment variables.
 */
public final class RcloneCheck implements Contender {
    private final String rclone;
    private final S3Target target;
    private final Path scratch;

    /**
     * @param rclone  the rclone executable
     * @param target  the bucket
     * @param scratch a directory for rclone's (absent) config file
     */
    public RcloneCheck(String rclone, S3Target target, Path scratch) {
        this.rclone = rclone;
        this.target = target;
        this.scratch = scratch;
    }

    @Override
    public String name() {
        return "rclone check --download";
    }

    @Override
    public double readAll(InputSet set) throws IOException {
        String remote = "s3:" + target.bucket() + "/" + set.prefix();
        return ExternalCommand.runTimed(List.of(rclone, "check", "--download", "-q", set.dir().toString(), remote),
                environment(), Set.of("AWS_CA_BUNDLE"), scratch).cpuSeconds();
    }

    /** rclone refuses a plain-HTTP endpoint while AWS_CA_BUNDLE is set, hence its removal above. */
    private Map<String, String> environment() {
        return Map.of(
                "RCLONE_CONFIG", scratch.resolve("rclone.conf").toString(),
                "RCLONE_CONFIG_S3_TYPE", "s3",
                "RCLONE_CONFIG_S3_PROVIDER", "Other",
                "RCLONE_CONFIG_S3_ENDPOINT", target.endpoint(),
                "RCLONE_CONFIG_S3_REGION", target.region(),
                "RCLONE_CONFIG_S3_ACCESS_KEY_ID", target.accessKeyId(),
                "RCLONE_CONFIG_S3_SECRET_ACCESS_KEY", target.secretAccessKey(),
                "RCLONE_CONFIG_S3_FORCE_PATH_STYLE", "true");
    }
}
