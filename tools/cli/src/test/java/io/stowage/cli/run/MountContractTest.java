package io.stowage.cli.run;

import io.stowage.cli.CliException;
import io.stowage.cli.Repo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The mount contract on mounts that keep it and on each way of breaking it, read from JSON lists and compose files. */
class MountContractTest {
    @TempDir
    Path dir;

    private static Mount m(String source, String target, boolean readOnly) {
        return new Mount(null, source, target, readOnly);
    }

    @Test
    void theContractMountsAsSpecifiedHaveNoProblem() {
        assertThat(MountContract.check(List.of(m("/src", "/workspace", true), m("/data", "/datasets", true),
                m("/vol/ckpt", "/checkpoints", false), m("/vol/art", "/artifacts", false), m("cache", "/cache", false),
                m("/run/s", "/secrets", true), m("/tmp", "/tmp", false)))).isEmpty();
    }

    @Test
    void everyBreachIsNamedAtOnce() {
        List<LintProblem> problems = MountContract.check(List.of(m("/src", "/workspace", false),
                m("/data", "/datasets/speech", false), m("/vol/ckpt", "/checkpoints", true), m("/vol/art", "/artifacts/", true),
                m("/vol/ckpt", "/cache", false), m("/run/s", "/secrets", false), m("/run/s", "/etc/creds", true)));

        assertThat(problems).extracting(LintProblem::field, LintProblem::problem).containsExactly(
                org.assertj.core.groups.Tuple.tuple("/workspace", "mounted read-write"),
                org.assertj.core.groups.Tuple.tuple("/datasets/speech", "mounted read-write"),
                org.assertj.core.groups.Tuple.tuple("/checkpoints", "mounted read-only"),
                org.assertj.core.groups.Tuple.tuple("/artifacts/", "mounted read-only"),
                org.assertj.core.groups.Tuple.tuple("/cache", "shares its source /vol/ckpt with /checkpoints"),
                org.assertj.core.groups.Tuple.tuple("/secrets", "mounted read-write"),
                org.assertj.core.groups.Tuple.tuple("/secrets", "shares its source /run/s with /etc/creds"));
    }

    @Test
    void aSiblingNameIsNoContractPathButDotDotIsResolved() {
        assertThat(MountContract.check(List.of(m("/d", "/datasets2", false), m("/w", "/workspaces", false)))).isEmpty();
        assertThat(MountContract.check(List.of(m("/d", "/tmp/../datasets", false))))
                .extracting(LintProblem::field).containsExactly("/tmp/../datasets");
    }

    @Test
    void aJsonListMayMixDockerShortMountsComposeAndDockerInspectShapes() throws Exception {
        Path list = Files.writeString(dir.resolve("mounts.json"), """
                ["/src:/workspace:ro,z", "/data:/datasets",
                 {"source":"/v","target":"/checkpoints","read_only":true},
                 {"Source":"/a","Destination":"/artifacts","RW":true}, "/cache"]
                """);

        List<Mount> mounts = MountSpecs.read(list.toString());

        assertThat(mounts).containsExactly(m("/src", "/workspace", true), m("/data", "/datasets", false),
                m("/v", "/checkpoints", true), m("/a", "/artifacts", false), m(null, "/cache", false));
        assertThat(MountContract.check(mounts)).extracting(LintProblem::field).containsExactly("/datasets", "/checkpoints");
    }

    @Test
    void aComposeServiceIsReadWithAnchorsAndMergeKeys() throws Exception {
        Path compose = Files.writeString(dir.resolve("docker-compose.yml"), """
                x-trainer: &trainer
                  image: trainer@sha256:0123
                  volumes:
                    - ./src:/workspace:ro
                    - data:/datasets
                services:
                  train:
                    <<: *trainer
                  eval:
                    image: eval
                    volumes:
                      - {type: bind, source: ./src, target: /workspace, read_only: true}
                      - type: volume
                        source: ckpt
                        target: /checkpoints
                        read_only: true
                volumes: {data: {}, ckpt: {}}
                """);

        assertThat(MountContract.check(MountSpecs.read(compose + "#train"))).extracting(LintProblem::field)
                .containsExactly("train: /datasets");
        assertThat(MountContract.check(MountSpecs.read(compose.toString()))).extracting(LintProblem::field)
                .containsExactly("train: /datasets", "eval: /checkpoints");
        assertThatThrownBy(() -> MountSpecs.read(compose + "#nope")).isInstanceOf(CliException.class)
                .hasMessageContaining("has no service nope");
    }

    @Test
    void theRepositoryComposeFileKeepsTheContract() {
        Path compose = Repo.root().resolve("compose/docker-compose.yml");

        List<Mount> mounts = MountSpecs.read(compose.toString());

        // every service mounts something (the hot volume at least): the file was really read, merge keys included
        assertThat(mounts).extracting(Mount::container).contains("uploader", "gatekeeper", "provider-adapter", "kafka");
        assertThat(MountContract.check(mounts)).isEmpty();
    }

    @Test
    void unreadableSpecsAreOneClearError() throws Exception {
        assertThatThrownBy(() -> MountSpecs.read(dir.resolve("none.json").toString())).isInstanceOf(CliException.class)
                .hasMessageContaining("does not exist");
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"target\":");
        assertThatThrownBy(() -> MountSpecs.read(bad.toString())).isInstanceOf(CliException.class)
                .hasMessageStartingWith("cannot parse");
        Path object = Files.writeString(dir.resolve("object.json"), "{\"target\":\"/datasets\"}");
        assertThatThrownBy(() -> MountSpecs.read(object.toString())).hasMessageContaining("is not a JSON list");
        Path relative = Files.writeString(dir.resolve("rel.json"), "[\"data:datasets\"]");
        assertThatThrownBy(() -> MountSpecs.read(relative.toString())).hasMessageContaining("without an absolute target");
        Path text = Files.writeString(dir.resolve("mounts.txt"), "x");
        assertThatThrownBy(() -> MountSpecs.read(text.toString())).hasMessageContaining("--mounts takes");
    }
}
