package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.cli.Repo;
import io.stowage.cli.CliRun;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage capsule lint} as a user runs it, with no stack up (no session: nothing is asked over the network):
 * exit 0 on a complete capsule, 2 with every problem named, one line for unreadable input, mounts from compose.
 */
class CapsuleLintCommandTest {
    private static final String SHA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    @TempDir
    Path home;
    @TempDir
    Path runDir;

    private ObjectNode complete() throws Exception {
        return (ObjectNode) EventCodec.mapper().readTree("""
                {"experimentId":"speech-digits","question":"Does a 2-layer MLP tell digits from prompts?",
                 "codeCommit":"5ffd5ae0123456789abcdef0123456789abcdef0","codeClean":true,"configSha256":"%1$s",
                 "dataManifestSha256":"%1$s","dataManifestRevision":"r1","protocolId":"digits-v1","protocolSha256":"%1$s",
                 "seed":1234,"runtimeProfile":"linux_amd64_cpu_eval","imageDigest":"sha256:%1$s",
                 "entrypoint":"examples/pytorch/train.py","args":[],"hardware":"2 CPU","caps":{"wallTime":"6h","gpuHours":0,"usd":5},
                 "checkpointInterval":"30m","resumeCommand":["train.py","--resume-from","/checkpoints/latest"],
                 "outputs":["/checkpoints"]}
                """.formatted(SHA));
    }

    @Test
    void aCompleteCapsuleInARunDirectoryIsCleanAndNoLedgerIsAskedWithoutAStack() throws Exception {
        Files.writeString(runDir.resolve("experiment.json"), complete().toString());

        CliRun.Result run = run("capsule", "lint", runDir.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("clean: " + runDir.resolve("experiment.json"))
                .contains("ledger not asked (no stack up");
    }

    @Test
    void everyProblemIsListedAtOnceWithExit2() throws Exception {
        ObjectNode capsule = complete().put("seed", "1234").put("imageDigest", "sha256:short");
        capsule.remove("question");
        capsule.putObject("caps").put("wallTime", "6 hours").put("gpuHours", 1).put("usd", 5);
        Path file = Files.writeString(runDir.resolve("experiment.json"), capsule.toString());

        CliRun.Result text = run("capsule", "lint", file.toString());
        CliRun.Result json = run("capsule", "lint", file.toString(), "--json");

        assertThat(text.exit()).isEqualTo(2);
        assertThat(text.out().lines()).containsExactly(
                "capsule question: missing; expected the research question the run answers, as a sentence",
                "capsule seed: \"1234\" is not valid; expected an integer",
                "capsule imageDigest: \"sha256:short\" is not valid; expected 'sha256:' followed by 64 lowercase hex digits",
                "capsule caps.wallTime: \"6 hours\" is not valid; expected a duration above zero such as 6h, 90m or 2d",
                "4 problems: " + file + "; ledger not asked (no stack up: start 'stowage up' or pass --ledger URL)");
        assertThat(json.exit()).isEqualTo(2);
        JsonNode out = EventCodec.mapper().readTree(json.out());
        assertThat(out.path("clean").asBoolean()).isFalse();
        assertThat(out.path("problems").findValuesAsText("field")).containsExactly("question", "seed", "imageDigest", "caps.wallTime");
        assertThat(out.path("problems").get(0).path("expected").asText()).isNotBlank();
    }

    @Test
    void aRetentionPolicyThatPublishWouldNotRecordIsAProblemAndAGoodOneIsClean() throws Exception {
        ObjectNode good = complete();
        good.putObject("retention").put("keepLast", 3).put("coldAfter", "P30D");
        Files.writeString(runDir.resolve("experiment.json"), good.toString());
        assertThat(run("capsule", "lint", runDir.toString()).exit()).isZero();

        ObjectNode typo = complete();
        typo.putObject("retention").put("keep_last", 3);
        Path file = Files.writeString(runDir.resolve("experiment.json"), typo.toString());
        CliRun.Result text = run("capsule", "lint", file.toString());

        assertThat(text.exit()).isEqualTo(2);
        assertThat(text.out().lines().findFirst().orElse("")).startsWith("capsule retention: unknown retention field"
                + " 'keep_last'").contains("publish would record no policy").endsWith("expected the fields of"
                + " docs/retention.md \"The policy\"");
    }

    @Test
    void unreadableInputIsOneLineAndExit2() throws Exception {
        CliRun.Result missing = run("capsule", "lint", runDir.resolve("nope.json").toString());
        CliRun.Result noCapsule = run("capsule", "lint", runDir.toString());
        Path broken = Files.writeString(runDir.resolve("broken.json"), "{\"seed\": 12,");
        CliRun.Result bad = run("capsule", "lint", broken.toString());
        CliRun.Result nothing = run("capsule", "lint");

        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err().strip()).isEqualTo("stowage: capsule " + runDir.resolve("nope.json") + " does not exist or is not a file");
        assertThat(noCapsule.err().strip()).isEqualTo("stowage: no experiment.json in " + runDir);
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().strip()).startsWith("stowage: cannot parse " + broken).doesNotContain("\n");
        assertThat(nothing.exit()).isEqualTo(2);
        assertThat(nothing.out()).isEmpty();
    }

    @Test
    void mountsAreCheckedBesideTheCapsuleAndTheRepositoryComposeFileIsClean() throws Exception {
        Files.writeString(runDir.resolve("experiment.json"), complete().toString());
        Path mounts = Files.writeString(runDir.resolve("mounts.json"), "[\"/src:/workspace\",\"/d:/datasets:ro\",\"/s:/secrets\"]");

        CliRun.Result bad = run("capsule", "lint", runDir.toString(), "--mounts", mounts.toString(), "--json");
        CliRun.Result compose = run("capsule", "lint", "--mounts", Repo.root().resolve("compose/docker-compose.yml").toString());

        assertThat(bad.exit()).isEqualTo(2);
        JsonNode out = EventCodec.mapper().readTree(bad.out());
        assertThat(out.path("problems").findValuesAsText("field")).containsExactly("/workspace", "/secrets");
        assertThat(out.path("problems").findValuesAsText("source")).containsOnly("mounts");
        assertThat(out.path("mountsChecked").asInt()).isEqualTo(3);
        assertThat(compose.exit()).as(compose.out() + compose.err()).isZero();
        assertThat(compose.out()).startsWith("clean: ");
    }

    private CliRun.Result run(String... args) {
        return CliRun.runWithHome(home, args);
    }
}
