package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.CliRun;
import io.stowage.cli.CliRun.Result;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import io.stowage.cli.platform.StowageHome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint step the uploader refuses (its files lie outside the upload roots: the uploader records an upload
 * failure and dead-letters the event) ends {@code stowage checkpoint publish} within seconds with exit 1 and the uploader's reason, instead of
 * waiting for its two-hour timeout; through the six packaged services against the real Kafka, S3Proxy and PostgreSQL.
 */
class RefusedCheckpointEndToEndTest {
    private static Path work;
    private static Path outside;
    private static Platform platform;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stowage-refused-e2e-");
        outside = Files.createTempDirectory("stowage-outside-roots-");
        Path hot = Files.createDirectories(work.resolve("hot"));
        platform = Platform.start(work, List.of(work, hot), List.of(hot), new Progress(System.err, false));
        platform.session().writeTo(new StowageHome(work).session());
        System.setProperty("stowage.home", work.toString());
        System.setProperty("stowage.token", Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip());
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.home");
        System.clearProperty("stowage.token");
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aStepOutsideTheUploadRootsFailsFastWithTheUploadersReason() throws Exception {
        Path step = Files.createDirectories(outside.resolve("run-1/step-100"));
        Files.writeString(step.resolve("model.pt"), "weights of step 100\n");

        Instant started = Instant.now();
        Result published = CliRun.run("checkpoint", "publish", step.toString(), "--experiment", "refused-e2e", "--run", "run-1");
        Duration took = Duration.between(started, Instant.now());

        assertThat(published.exit()).as(published.err()).isEqualTo(CliException.FAILED);
        List<String> errors = published.err().lines().filter(l -> l.startsWith("stowage:")).toList();
        assertThat(errors).singleElement().asString()
                // whichever the CLI sees first: the uploader's upload failure or its dead letter of the event
                .matches("stowage: (upload of checkpoint/refused-e2e/run-1/000000000100 failed: "
                        + "|a service refused an event of checkpoint/refused-e2e/run-1/000000000100 ).*")
                .contains("local path " + step + " is outside the upload roots");
        assertThat(took).as("publish ended on the refusal, not on its timeout").isLessThan(Duration.ofMinutes(2));
    }
}
