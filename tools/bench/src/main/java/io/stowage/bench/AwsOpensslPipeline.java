package io.stowage.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The aws CLI reference: consumes an {@link InputSet} and, one object after another, runs
 * {@code aws s3 cp s3://BUCKET/KEY - --endpoint-url URL | openssl dgst -sha256 -r} in bash with {@code pipefail},
 * checking the printed SHA-256 against the one recorded at upload.
 */
public final class AwsOpensslPipeline implements Contender {
    private final String aws;
    private final String openssl;
    private final S3Target target;
    private final Path scratch;

    /**
     * @param aws     the aws CLI executable
     * @param openssl the openssl executable
     * @param target  the bucket
     * @param scratch a directory for the CLI's (absent) config files
     */
    public AwsOpensslPipeline(String aws, String openssl, S3Target target, Path scratch) {
        this.aws = aws;
        this.openssl = openssl;
        this.target = target;
        this.scratch = scratch;
    }

    @Override
    public String name() {
        return "aws s3 cp - | openssl dgst -sha256";
    }

    @Override
    public double readAll(InputSet set) throws IOException {
        double cpuSeconds = 0;
        for (BenchObject object : set.objects()) {
            // the key and endpoint are passed as positional parameters, never spliced into the script
            ExternalCommand.Timed run = ExternalCommand.runTimed(List.of("bash", "-c",
                    "set -o pipefail; \"$1\" s3 cp \"s3://$2/$3\" - --endpoint-url \"$4\" | \"$5\" dgst -sha256 -r",
                    "pipeline", aws, target.bucket(), object.key(), target.endpoint(), openssl),
                    environment(), Set.of(), scratch);
            String output = run.output();
            cpuSeconds += run.cpuSeconds();
            String sha256 = output.strip().split("\\s+")[0];
            if (!sha256.equals(object.sha256())) {
                throw new IOException("aws | openssl gave " + output.strip() + " for " + object.key()
                        + ", expected " + object.sha256());
            }
        }
        return cpuSeconds;
    }

    private Map<String, String> environment() {
        return Map.of(
                "AWS_ACCESS_KEY_ID", target.accessKeyId(),
                "AWS_SECRET_ACCESS_KEY", target.secretAccessKey(),
                "AWS_DEFAULT_REGION", target.region(),
                "AWS_CONFIG_FILE", scratch.resolve("aws-config").toString(),
                "AWS_SHARED_CREDENTIALS_FILE", scratch.resolve("aws-credentials").toString(),
                "AWS_PAGER", "");
    }
}
