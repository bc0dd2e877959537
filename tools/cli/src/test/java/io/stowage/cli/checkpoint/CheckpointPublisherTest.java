package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.cli.StowageCli;
import io.stowage.events.EventCodec;
import io.stowage.events.Provenance;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.CheckpointManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointPublisherTest {
    private static final String EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final String ABC_SHA = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @TempDir
    Path tmp;
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC);

    @Test
    void manifestListsEveryFileWithBytesAndSha256AndTheEventReferencesIt() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("run/step-000000000007"));
        Files.writeString(step.resolve("model.pt"), "abc");
        Files.createDirectories(step.resolve("shards"));
        Files.writeString(step.resolve("shards/empty.bin"), "");
        Files.writeString(step.resolve("provenance.json"),
                "{\"codeCommit\":\"c0ffee\",\"configSha256\":\"" + ABC_SHA + "\",\"dataManifestSha256\":\"" + EMPTY_SHA + "\"}");

        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(tmp.resolve("staging"), clock)
                .prepare(step, "exp", "run", 7, true, List.of("best"));

        assertThat(prepared.warnings()).isEmpty();
        assertThat(prepared.manifest().files()).extracting(f -> f.path() + " " + f.bytes() + " " + f.sha256())
                .containsExactly("model.pt 3 " + ABC_SHA, "provenance.json "
                        + Files.size(step.resolve("provenance.json")) + " " + Sha256.of(step.resolve("provenance.json")),
                        "shards/empty.bin 0 " + EMPTY_SHA);
        Path manifest = Path.of(prepared.event().manifestPath());
        assertThat(manifest).startsWith(tmp.resolve("staging"));
        assertThat(manifest.startsWith(step)).isFalse();
        assertThat(Sha256.of(manifest)).isEqualTo(prepared.event().manifestSha256());
        assertThat(EventCodec.mapper().readValue(manifest.toFile(), CheckpointManifest.class)).isEqualTo(prepared.manifest());
        assertThat(prepared.event().assetId()).isEqualTo("checkpoint/exp/run/000000000007");
        assertThat(prepared.event().provenance().codeCommit()).isEqualTo("c0ffee");
        assertThat(prepared.event().key()).isTrue();
        assertThat(prepared.event().fileCount()).isEqualTo(3);
    }

    @Test
    void missingProvenanceIsPublishedWithAWarningThatTheGateWillDeny() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("step-1"));
        Files.writeString(step.resolve("model.pt"), "abc");
        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(tmp.resolve("staging"), clock)
                .prepare(step, "exp", "run", 1, false, List.of());
        assertThat(prepared.warnings()).singleElement().asString().contains("can never release it");
        assertThat(prepared.event().provenance().complete()).isFalse();
    }

    @Test
    void provenanceComesFromTheRunsCapsuleWithTheStepFileFillingGaps() throws Exception {
        Path run = Files.createDirectories(tmp.resolve("run-9"));
        Files.writeString(run.resolve("experiment.json"), "{\"experimentId\":\"exp-42\",\"codeCommit\":\"68dee4f\","
                + "\"codeClean\":true,\"configSha256\":\"" + ABC_SHA + "\",\"seed\":1234,\"runtimeProfile\":\"cpu-torch-1.13\","
                + "\"imageDigest\":\"sha256:" + EMPTY_SHA + "\",\"entrypoint\":\"examples/pytorch/train.py\","
                + "\"args\":[\"--steps\",\"150\"],\"hardware\":\"2 vCPU, 24 GiB, no GPU\",\"finalStep\":150}");
        Path step = Files.createDirectories(run.resolve("step-000000000100"));
        Files.writeString(step.resolve("model.pt"), "abc");
        Files.writeString(step.resolve("provenance.json"), "{\"codeCommit\":\"ignored-capsule-wins\",\"dataManifestSha256\":\""
                + EMPTY_SHA + "\"}");

        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(tmp.resolve("staging"), clock)
                .prepare(step, "exp", "run-9", 100, false, List.of());

        assertThat(prepared.event().provenance()).isEqualTo(new Provenance("68dee4f", ABC_SHA, EMPTY_SHA, "exp-42", true,
                1234L, "cpu-torch-1.13", "sha256:" + EMPTY_SHA, "examples/pytorch/train.py", List.of("--steps", "150"),
                "2 vCPU, 24 GiB, no GPU"));
        assertThat(prepared.warnings()).isEmpty();
        assertThat(prepared.event().key()).isFalse();
        CheckpointManifest manifest = EventCodec.mapper().readValue(Path.of(prepared.event().manifestPath()).toFile(),
                CheckpointManifest.class);
        assertThat(manifest.provenance()).isEqualTo(prepared.event().provenance());
    }

    @Test
    void eachMissingGateFieldIsNamedAndADirtyTreeIsWarnedAbout() throws Exception {
        Path run = Files.createDirectories(tmp.resolve("run-d"));
        Files.writeString(run.resolve("experiment.json"), "{\"codeCommit\":\"abc\",\"codeClean\":false}");
        Path step = Files.createDirectories(run.resolve("step-3"));
        Files.writeString(step.resolve("model.pt"), "abc");

        CheckpointPublisher.Prepared prepared = new CheckpointPublisher(tmp.resolve("staging"), clock)
                .prepare(step, "exp", "run-d", 3, false, List.of());

        assertThat(prepared.warnings()).containsExactly(
                "checkpoint/exp/run-d/000000000003 lacks config hash, data manifest (neither experiment.json beside the step"
                        + " nor provenance.json in it names them): it will be archived, but the gate can never release it",
                "checkpoint/exp/run-d/000000000003 was trained from a working tree with uncommitted changes at abc:"
                        + " the commit alone does not reproduce it");
    }

    @Test
    void theCapsulesRetentionPolicyGoesWithThePublishAndAnUnreadableOneIsWarnedAboutNotRecorded() throws Exception {
        Path run = Files.createDirectories(tmp.resolve("run-r"));
        Path step = Files.createDirectories(run.resolve("step-5"));
        Files.writeString(step.resolve("model.pt"), "abc");
        CheckpointPublisher publisher = new CheckpointPublisher(tmp.resolve("staging"), clock);

        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keepLast\":3,\"keepInterval\":\"PT6H\","
                + "\"tagsPin\":false}}");
        assertThat(publisher.prepare(step, "exp", "run-r", 5, false, List.of()).event().retention())
                .isEqualTo(new io.stowage.events.RetentionDecided.Policy(3, null, null, null, null, "PT6H", null, false));

        // a typo must not stop the archive: warned, and the run gets no sweep policy from this publish
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"keep_last\":3}}");
        CheckpointPublisher.Prepared typo = publisher.prepare(step, "exp", "run-r", 5, false, List.of());
        assertThat(typo.event().retention()).isNull();
        assertThat(typo.warnings()).anyMatch(w -> w.contains("retention policy is not recorded") && w.contains("keep_last"));

        // no rule (tagsPin alone keeps everything): nothing to sweep with
        Files.writeString(run.resolve("experiment.json"), "{\"retention\":{\"tagsPin\":true}}");
        assertThat(publisher.prepare(step, "exp", "run-r", 5, false, List.of()).event().retention()).isNull();
        Files.delete(run.resolve("experiment.json"));
        assertThat(publisher.prepare(step, "exp", "run-r", 5, false, List.of()).event().retention()).isNull();
    }

    @Test
    void bestTheLastStepAndEveryNthStepAreKeyCheckpoints() throws Exception {
        Path run = Files.createDirectories(tmp.resolve("run-k"));
        Files.writeString(run.resolve("experiment.json"), "{\"finalStep\":30}");
        CheckpointPublisher publisher = new CheckpointPublisher(tmp.resolve("staging"), clock);
        for (long n : new long[]{10, 20, 25, 30}) {
            Files.writeString(Files.createDirectories(run.resolve("step-" + n)).resolve("model.pt"), "w" + n);
        }
        assertThat(publisher.prepare(run.resolve("step-10"), "exp", "run-k", 10, false, List.of("best")).keyReasons())
                .containsExactly("tagged best");
        assertThat(publisher.prepare(run.resolve("step-20"), "exp", "run-k", 20, false, List.of(), false, 20L).keyReasons())
                .containsExactly("every 20 steps");
        CheckpointPublisher.Prepared plain = publisher.prepare(run.resolve("step-25"), "exp", "run-k", 25, false, List.of(),
                false, 20L);
        assertThat(plain.keyReasons()).isEmpty();
        assertThat(plain.event().key()).isFalse();
        CheckpointPublisher.Prepared last = publisher.prepare(run.resolve("step-30"), "exp", "run-k", 30, false, List.of());
        assertThat(last.keyReasons()).containsExactly("last step");
        assertThat(last.event().key()).isTrue();
        assertThat(last.manifest().key()).isTrue();
        assertThat(publisher.prepare(run.resolve("step-25"), "exp", "run-k", 25, true, List.of(), true, null).keyReasons())
                .containsExactly("flagged --key", "last step");
    }

    @Test
    void badInputIsAUsageErrorNamingTheProblem() throws Exception {
        CheckpointPublisher publisher = new CheckpointPublisher(tmp.resolve("staging"), clock);
        assertThatThrownBy(() -> publisher.prepare(tmp.resolve("missing"), "exp", "run", 1, false, List.of()))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE))
                .hasMessageContaining("does not exist");
        Path step = Files.createDirectories(tmp.resolve("step-2"));
        Files.writeString(step.resolve("model.pt"), "abc");
        assertThatThrownBy(() -> publisher.prepare(step, "my exp", "run", 2, false, List.of()))
                .hasMessageContaining("experiment 'my exp'");
        Files.createSymbolicLink(step.resolve("escape"), Path.of("/etc/hostname"));
        assertThatThrownBy(() -> publisher.prepare(step, "exp", "run", 2, false, List.of()))
                .hasMessageContaining("symlink");
    }

    @Test
    void aFifoInTheStepIsRefusedByNameNotSkipped() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("step-3/opt"));
        Files.writeString(step.getParent().resolve("model.pt"), "abc");
        Path fifo = step.resolve("optimizer.pt");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor() == 0 && Files.exists(fifo,
                java.nio.file.LinkOption.NOFOLLOW_LINKS), "mkfifo is not available on this machine");
        CheckpointPublisher publisher = new CheckpointPublisher(tmp.resolve("staging"), clock);

        assertThatThrownBy(() -> publisher.prepare(step.getParent(), "exp", "run", 3, false, List.of()))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE))
                .hasMessage("checkpoint holds " + fifo + ", which is neither a regular file nor a directory (a FIFO,"
                        + " socket or device): Stowage does not archive it");
        assertThat(tmp.resolve("staging")).as("no manifest written").doesNotExist();
    }

    @Test
    void aFileNameThatIsNotUtf8IsRefusedNotRecordedWithAReplacementCharacter() throws Exception {
        Path step = Files.createDirectories(tmp.resolve("step-4"));
        Files.writeString(step.resolve("model.pt"), "abc");
        // byte 0xFF is never valid UTF-8; Java cannot write such a name, the shell can
        Process touch = new ProcessBuilder("sh", "-c", "touch \"$(printf 'opt-\\377.pt')\"").directory(step.toFile())
                .redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(touch.waitFor() == 0, "cannot create a non-UTF-8 name here");
        try (var names = Files.list(step)) {
            org.junit.jupiter.api.Assumptions.assumeTrue(names.anyMatch(p -> p.toString().indexOf('\uFFFD') >= 0),
                    "this JVM's file-name encoding decodes 0xFF");
        }
        CheckpointPublisher publisher = new CheckpointPublisher(tmp.resolve("staging"), clock);

        assertThatThrownBy(() -> publisher.prepare(step, "exp", "run", 4, false, List.of()))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(CliException.USAGE))
                .hasMessageContaining("a name that is not valid UTF-8").hasMessageContaining("rename it");
        assertThat(tmp.resolve("staging")).as("no manifest written").doesNotExist();
    }

    @Test
    void theCommandLineRefusesBadDatasetInputWithExitCode2BeforeContactingAnything() {
        assertThat(StowageCli.execute("dataset", "shard", tmp.toString(), "--name", "my data", "--revision", "r1"))
                .isEqualTo(CliException.USAGE);
        assertThat(StowageCli.execute("dataset", "shard", tmp.resolve("absent").toString(), "--name", "speech", "--revision", "r1"))
                .isEqualTo(CliException.USAGE);
        assertThat(StowageCli.execute("dataset", "shard", tmp.toString(), "--name", "données", "--revision", "r1"))
                .isEqualTo(CliException.USAGE);
    }
}
