package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stowage.events.EventCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The capsule lint on a complete capsule, each field broken in turn, an empty capsule and a capsule written before the lint. */
class CapsuleLintTest {
    static final String SHA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    static final String COMMIT = "5ffd5ae0123456789abcdef0123456789abcdef0";

    /** @return a capsule that records everything a run must */
    static ObjectNode complete() throws Exception {
        return (ObjectNode) EventCodec.mapper().readTree("""
                {"experimentId":"speech-digits","question":"Does a 2-layer MLP tell digits from prompts?",
                 "codeCommit":"%2$s","codeClean":true,"configSha256":"%1$s","dataManifestSha256":"%1$s",
                 "dataManifestRevision":"r1","protocolId":"digits-v1","protocolSha256":"%1$s","seed":1234,
                 "runtimeProfile":"linux_amd64_cpu_eval","imageDigest":"sha256:%1$s","entrypoint":"examples/pytorch/train.py",
                 "args":["--steps","150"],"hardware":"2 CPU, no GPU","caps":{"wallTime":"6h","gpuHours":0,"usd":5},
                 "checkpointInterval":50,"resumeCommand":"train.py --resume-from /checkpoints/latest",
                 "outputs":["/checkpoints","/artifacts/train.log"],"finalStep":150,"retention":{"keepLast":3}}
                """.formatted(SHA, COMMIT));
    }

    private static List<String> fields(JsonNode capsule) {
        return CapsuleLint.check(capsule).stream().map(LintProblem::field).toList();
    }

    @Test
    void aCompleteCapsuleHasNoProblemAndUnknownKeysAreAllowed() throws Exception {
        assertThat(CapsuleLint.check(complete())).isEmpty();
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
            "experimentId|\"speech digits\"|experimentId",
            "question|\"  \"|question",
            "codeCommit|\"unknown\"|codeCommit",
            "codeCommit|\"5ffd5ae\"|codeCommit",
            "codeClean|\"yes\"|codeClean",
            "configSha256|\"ABC\"|configSha256",
            "dataManifestSha256|42|dataManifestSha256",
            "dataManifestRevision|\"\"|dataManifestRevision",
            "protocolId|null|protocolId",
            "protocolSha256|\"0123\"|protocolSha256",
            "seed|\"1234\"|seed",
            "seed|1.5|seed",
            "runtimeProfile|[]|runtimeProfile",
            "imageDigest|\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"|imageDigest",
            "imageDigest|\"sha256:0123\"|imageDigest",
            "imageDigest|null|imageDigest",
            "entrypoint|\"\"|entrypoint",
            "args|\"--steps 150\"|args",
            "args|[1,2]|args",
            "hardware|{}|hardware",
            "caps|\"6h\"|caps",
            "caps|{\"wallTime\":\"6 hours\",\"gpuHours\":0,\"usd\":5}|caps.wallTime",
            "caps|{\"wallTime\":\"0\",\"gpuHours\":0,\"usd\":5}|caps.wallTime",
            "caps|{\"wallTime\":\"6h\",\"gpuHours\":-1,\"usd\":5}|caps.gpuHours",
            "caps|{\"wallTime\":\"6h\",\"gpuHours\":0,\"usd\":0}|caps.usd",
            "caps|{\"wallTime\":\"6h\",\"gpuHours\":0,\"usd\":\"5\"}|caps.usd",
            "caps|{\"gpuHours\":0,\"usd\":5}|caps.wallTime",
            "checkpointInterval|0|checkpointInterval",
            "checkpointInterval|\"often\"|checkpointInterval",
            "resumeCommand|[]|resumeCommand",
            "outputs|[]|outputs",
            "outputs|[\"/cache/model.pt\"]|outputs",
            "outputs|[\"/secrets/token\"]|outputs",
            "finalStep|0|finalStep",
            "resumeFromSha256|\"latest\"|resumeFromSha256",
            "modelSha256|\"sha256:0123\"|modelSha256"})
    void eachBrokenFieldIsNamedAlone(String field, String value, String reported) throws Exception {
        ObjectNode capsule = complete();
        capsule.set(field, EventCodec.mapper().readTree(value));

        List<LintProblem> problems = CapsuleLint.check(capsule);

        assertThat(problems).extracting(LintProblem::field).containsExactly(reported);
        assertThat(problems.get(0).expected()).isNotBlank();
    }

    @Test
    void eachRequiredFieldMissingIsNamedAsMissing() throws Exception {
        for (String field : List.of("experimentId", "question", "codeCommit", "codeClean", "configSha256",
                "dataManifestSha256", "dataManifestRevision", "protocolId", "protocolSha256", "seed", "runtimeProfile",
                "imageDigest", "entrypoint", "args", "hardware", "caps", "checkpointInterval", "resumeCommand", "outputs")) {
            ObjectNode capsule = complete();
            capsule.remove(field);
            assertThat(CapsuleLint.check(capsule)).as(field).containsExactly(
                    new LintProblem(field, "missing", CapsuleLint.check(capsule).get(0).expected()));
        }
    }

    @Test
    void anUncleanTreeNeedsThePatchHash() throws Exception {
        ObjectNode capsule = complete().put("codeClean", false);
        assertThat(fields(capsule)).containsExactly("patchSha256");
        assertThat(CapsuleLint.check(capsule.put("patchSha256", SHA))).isEmpty();
        assertThat(fields(capsule.put("patchSha256", "dirty"))).containsExactly("patchSha256");
    }

    @Test
    void aDocumentedNativeExceptionStandsInsteadOfAnImageDigestButNotBesideIt() throws Exception {
        ObjectNode capsule = complete();
        capsule.remove("imageDigest");
        capsule.putObject("nativeException").put("host", "mac-studio-m2").put("toolchain", "Xcode 16, CoreML 8")
                .put("reason", "CoreML runs only on macOS");
        assertThat(CapsuleLint.check(capsule)).isEmpty();

        ((ObjectNode) capsule.get("nativeException")).remove("toolchain");
        ((ObjectNode) capsule.get("nativeException")).put("reason", "");
        assertThat(fields(capsule)).containsExactly("nativeException.toolchain", "nativeException.reason");

        capsule.put("imageDigest", "sha256:" + SHA);
        assertThat(fields(capsule)).containsExactly("imageDigest");
    }

    @Test
    void anEmptyCapsuleNamesEveryRequiredFieldAtOnce() throws Exception {
        List<LintProblem> problems = CapsuleLint.check(EventCodec.mapper().readTree("{}"));

        assertThat(problems).extracting(LintProblem::field).containsExactly("experimentId", "question", "codeCommit",
                "codeClean", "configSha256", "dataManifestSha256", "dataManifestRevision", "protocolId", "protocolSha256",
                "seed", "runtimeProfile", "imageDigest", "entrypoint", "args", "hardware", "caps", "checkpointInterval",
                "resumeCommand", "outputs");
        assertThat(problems).allSatisfy(p -> assertThat(p.problem()).isEqualTo("missing"));
    }

    @Test
    void aCapsuleWrittenBeforeTheLintNamesWhatItLacks() throws Exception {
        // the shape examples/pytorch/train.py wrote: no question, protocol, caps, interval, resume command, outputs;
        // imageDigest null outside a container
        JsonNode old = EventCodec.mapper().readTree("""
                {"experimentId":"speech-digits","codeCommit":"%2$s","codeClean":true,"configSha256":"%1$s",
                 "dataManifestSha256":"%1$s","seed":1234,"runtimeProfile":"cpu-torch-1.13.1","imageDigest":null,
                 "entrypoint":"examples/pytorch/train.py","args":["--steps","150"],"finalStep":150,
                 "hardware":"2 CPU, torch threads 2, no GPU"}
                """.formatted(SHA, COMMIT));

        assertThat(fields(old)).containsExactly("question", "dataManifestRevision", "protocolId", "protocolSha256",
                "imageDigest", "caps", "checkpointInterval", "resumeCommand", "outputs");
    }

    @Test
    void manyBrokenFieldsAreAllReportedAtOnce() throws Exception {
        ObjectNode capsule = complete().put("seed", "x").put("codeCommit", "HEAD").put("imageDigest", "latest");
        capsule.putObject("caps").put("wallTime", "forever").put("gpuHours", "lots");
        assertThat(fields(capsule)).containsExactly("codeCommit", "seed", "imageDigest", "caps.wallTime",
                "caps.gpuHours", "caps.usd");
    }

    @Test
    void aCapsuleThatIsNoObjectIsOneProblem() throws Exception {
        assertThat(CapsuleLint.check(EventCodec.mapper().readTree("[1,2]")))
                .containsExactly(new LintProblem("(capsule)", "is a JSON array", "a JSON object"));
    }

    @Test
    void theStoredDigestsAreTheWellFormedDataModelAndResumeHashes() throws Exception {
        ObjectNode capsule = complete().put("resumeFromSha256", SHA.replace('0', 'f')).put("modelSha256", "bad");
        assertThat(CapsuleLint.storedDigests(capsule)).containsExactly(
                java.util.Map.entry("dataManifestSha256", SHA), java.util.Map.entry("resumeFromSha256", SHA.replace('0', 'f')));
    }
}
