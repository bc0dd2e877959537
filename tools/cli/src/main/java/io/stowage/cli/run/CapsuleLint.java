package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.ResourceUnits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks an experiment capsule (the run's {@code experiment.json}, as a JSON tree) against the fields a run must
 * record before money is spent, and produces every problem at once ({@link LintProblem}), in field order. Reads
 * nothing but the tree: no file, no network.
 *
 * <p>Required: {@code experimentId}, {@code question}, {@code codeCommit}, {@code codeClean} (and
 * {@code patchSha256} when it is false), {@code configSha256}, {@code dataManifestSha256},
 * {@code dataManifestRevision}, {@code protocolId}, {@code protocolSha256}, {@code seed}, {@code runtimeProfile},
 * {@code imageDigest} or else {@code nativeException} {@code {host, toolchain, reason}}, {@code entrypoint},
 * {@code args}, {@code hardware}, {@code caps} {@code {wallTime, gpuHours, usd}}, {@code checkpointInterval},
 * {@code resumeCommand}, {@code outputs}. Optional but checked when present: {@code finalStep},
 * {@code resumeFromSha256}, {@code modelSha256}. Any other key (a retention policy, the config itself) is allowed.
 * A JSON {@code null} counts as missing.
 */
public final class CapsuleLint {
    static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    static final Pattern IMAGE_DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
    private static final String HEX = "64 lowercase hex digits (a SHA-256)";

    private final List<LintProblem> problems = new ArrayList<>();
    private final JsonNode capsule;

    private CapsuleLint(JsonNode capsule) {
        this.capsule = capsule;
    }

    /** @return every problem of {@code capsule}, empty when it records everything a run must */
    public static List<LintProblem> check(JsonNode capsule) {
        if (capsule == null || !capsule.isObject()) {
            return List.of(new LintProblem("(capsule)", "is " + (capsule == null ? "empty" : "a JSON " + capsule.getNodeType()
                    .toString().toLowerCase(java.util.Locale.ROOT)), "a JSON object"));
        }
        CapsuleLint lint = new CapsuleLint(capsule);
        lint.identity();
        lint.runtime();
        lint.plan();
        return List.copyOf(lint.problems);
    }

    /**
     * @return the SHA-256s the capsule names that must be stored objects, by field ({@code dataManifestSha256},
     *         {@code resumeFromSha256}, {@code modelSha256}); only well-formed values, in that order
     */
    public static Map<String, String> storedDigests(JsonNode capsule) {
        Map<String, String> digests = new LinkedHashMap<>();
        for (String field : List.of("dataManifestSha256", "resumeFromSha256", "modelSha256")) {
            JsonNode value = capsule == null ? null : capsule.get(field);
            if (value != null && value.isTextual() && SHA256.matcher(value.asText()).matches()) {
                digests.put(field, value.asText());
            }
        }
        return digests;
    }

    private void identity() {
        matching("experimentId", NAME, "a name of ASCII letters, digits, '.', '_', '-'");
        text("question", "the research question the run answers, as a sentence");
        matching("codeCommit", COMMIT, "the full git commit id (40 or 64 lowercase hex digits)");
        JsonNode clean = get(capsule, "codeClean");
        if (clean == null) {
            missing("codeClean", "true when the work tree had no uncommitted change, false with patchSha256");
        } else if (!clean.isBoolean()) {
            wrong("codeClean", clean, "true or false");
        } else if (!clean.booleanValue()) {
            matching("patchSha256", SHA256, HEX + " of the uncommitted diff, required when codeClean is false");
        }
        matching("configSha256", SHA256, HEX);
        matching("dataManifestSha256", SHA256, HEX);
        text("dataManifestRevision", "the data manifest's revision, e.g. the dataset revision it was sealed as");
        text("protocolId", "the evaluation protocol's id");
        matching("protocolSha256", SHA256, HEX);
        JsonNode seed = get(capsule, "seed");
        if (seed == null) {
            missing("seed", "an integer");
        } else if (!seed.isIntegralNumber()) {
            wrong("seed", seed, "an integer");
        }
    }

    private void runtime() {
        text("runtimeProfile", "the runtime profile's name, e.g. linux_amd64_cuda_train");
        JsonNode digest = get(capsule, "imageDigest");
        JsonNode exception = get(capsule, "nativeException");
        if (digest != null && exception != null) {
            problems.add(new LintProblem("imageDigest", "given together with nativeException",
                    "either the image digest or a documented native exception, not both"));
        } else if (exception != null) {
            nativeException(exception);
        } else if (digest == null) {
            missing("imageDigest", "'sha256:' + " + HEX.replace(" (a SHA-256)", "") + ", or nativeException {host, toolchain, reason}");
        } else {
            matching("imageDigest", IMAGE_DIGEST, "'sha256:' followed by 64 lowercase hex digits");
        }
        text("entrypoint", "the command the run starts, e.g. examples/pytorch/train.py");
        JsonNode args = get(capsule, "args");
        if (args == null) {
            missing("args", "the full argument list, an array of strings (empty when there are none)");
        } else if (!stringArray(args, false)) {
            wrong("args", args, "an array of strings");
        }
        JsonNode hardware = get(capsule, "hardware");
        if (hardware == null) {
            missing("hardware", "the GPU/CPU/memory the run had, as text or an object");
        } else if (!(hardware.isTextual() && !hardware.asText().isBlank()) && !(hardware.isObject() && !hardware.isEmpty())) {
            wrong("hardware", hardware, "non-empty text or a non-empty object");
        }
    }

    private void nativeException(JsonNode exception) {
        if (!exception.isObject()) {
            wrong("nativeException", exception, "an object {host, toolchain, reason}");
            return;
        }
        for (String field : List.of("host", "toolchain", "reason")) {
            JsonNode value = get(exception, field);
            if (value == null) {
                missing("nativeException." + field, "non-empty text naming the " + field);
            } else if (!value.isTextual() || value.asText().isBlank()) {
                wrong("nativeException." + field, value, "non-empty text naming the " + field);
            }
        }
    }

    private void plan() {
        caps();
        JsonNode interval = get(capsule, "checkpointInterval");
        String intervalRule = "a positive number of steps, or a duration such as 30m";
        if (interval == null) {
            missing("checkpointInterval", intervalRule);
        } else if (interval.isIntegralNumber() ? interval.asLong() < 1 : !positiveDuration(interval)) {
            wrong("checkpointInterval", interval, intervalRule);
        }
        JsonNode resume = get(capsule, "resumeCommand");
        String resumeRule = "the command that resumes the run from its latest checkpoint, as text or an array of strings";
        if (resume == null) {
            missing("resumeCommand", resumeRule);
        } else if (!(resume.isTextual() && !resume.asText().isBlank()) && !stringArray(resume, true)) {
            wrong("resumeCommand", resume, resumeRule);
        }
        outputs();
        JsonNode finalStep = get(capsule, "finalStep");
        if (finalStep != null && !(finalStep.isIntegralNumber() && finalStep.asLong() >= 1)) {
            wrong("finalStep", finalStep, "a step number of at least 1");
        }
        for (String optional : List.of("resumeFromSha256", "modelSha256")) {
            if (get(capsule, optional) != null) {
                matching(optional, SHA256, HEX);
            }
        }
    }

    private void caps() {
        JsonNode caps = get(capsule, "caps");
        if (caps == null) {
            missing("caps", "an object {wallTime, gpuHours, usd}");
            return;
        }
        if (!caps.isObject()) {
            wrong("caps", caps, "an object {wallTime, gpuHours, usd}");
            return;
        }
        JsonNode wall = get(caps, "wallTime");
        if (wall == null) {
            missing("caps.wallTime", "a duration such as 6h, 90m or 2d");
        } else if (!positiveDuration(wall)) {
            wrong("caps.wallTime", wall, "a duration above zero such as 6h, 90m or 2d");
        }
        JsonNode gpu = get(caps, "gpuHours");
        if (gpu == null) {
            missing("caps.gpuHours", "a number of GPU hours (0 for a run without a GPU)");
        } else if (!gpu.isNumber() || gpu.decimalValue().signum() < 0) {
            wrong("caps.gpuHours", gpu, "a number of GPU hours, at least 0");
        }
        JsonNode usd = get(caps, "usd");
        if (usd == null) {
            missing("caps.usd", "a money cap in US dollars");
        } else if (!usd.isNumber() || usd.decimalValue().signum() <= 0) {
            wrong("caps.usd", usd, "a money cap in US dollars above 0");
        }
    }

    private void outputs() {
        JsonNode outputs = get(capsule, "outputs");
        String rule = "a non-empty array of the paths the run must produce";
        if (outputs == null) {
            missing("outputs", rule);
            return;
        }
        if (!stringArray(outputs, true)) {
            wrong("outputs", outputs, rule);
            return;
        }
        for (JsonNode output : outputs) {
            String path = output.asText();
            for (String banned : List.of("/cache", "/secrets")) {
                if (MountContract.under(path, banned)) {
                    problems.add(new LintProblem("outputs", "names " + path + ", under " + banned,
                            "outputs under /checkpoints or /artifacts: " + banned + " is never evidence"));
                }
            }
        }
    }

    private void text(String field, String expected) {
        JsonNode value = get(capsule, field);
        if (value == null) {
            missing(field, expected);
        } else if (!value.isTextual() || value.asText().isBlank()) {
            wrong(field, value, expected);
        }
    }

    private void matching(String field, Pattern pattern, String expected) {
        JsonNode value = get(capsule, field);
        if (value == null) {
            missing(field, expected);
        } else if (!value.isTextual() || !pattern.matcher(value.asText()).matches()) {
            wrong(field, value, expected);
        }
    }

    private void missing(String field, String expected) {
        problems.add(new LintProblem(field, "missing", expected));
    }

    private void wrong(String field, JsonNode value, String expected) {
        String shown = value.toString();
        shown = shown.length() > 80 ? shown.substring(0, 77) + "..." : shown;
        problems.add(new LintProblem(field, shown + " is not valid", expected));
    }

    private static JsonNode get(JsonNode parent, String field) {
        JsonNode value = parent.get(field);
        return value == null || value.isNull() ? null : value;
    }

    private static boolean stringArray(JsonNode value, boolean nonEmpty) {
        if (!value.isArray() || (nonEmpty && value.isEmpty())) {
            return false;
        }
        for (JsonNode item : value) {
            if (!item.isTextual() || (nonEmpty && item.asText().isBlank())) {
                return false;
            }
        }
        return true;
    }

    private static boolean positiveDuration(JsonNode value) {
        if (!value.isTextual()) {
            return false;
        }
        try {
            return !ResourceUnits.duration(value.asText()).isNegative() && !ResourceUnits.duration(value.asText()).isZero();
        } catch (CliException e) {
            return false;
        }
    }
}
