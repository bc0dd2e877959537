package io.stowage.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No credential is committed: every tracked configuration, script and documentation file
 * ({@code git ls-files}: properties, YAML, env files, JSON, shell, Python, TOML, Markdown, Dockerfiles; not the
 * sample data; in Markdown, code blocks and inline code only) is scanned for a credential key name (secret, password, api key, access key, signing key, token,
 * credential) assigned a literal value. Allowed values: empty, a reference ({@code ${…}}, {@code $VAR}), a
 * placeholder ({@code <…>}, {@code change-me…}), a file path (keys ending in {@code -file} / {@code _FILE}, or a value
 * starting with {@code /}), and a {@code %test.} profile value starting with {@code test-only-}. Java sources are not
 * scanned (test fixtures hold deliberately wrong keys); the canary test covers what the running code leaks.
 */
class CommittedCredentialsTest {
    /** A credential-looking key, a separator ({@code =} or {@code :}), then the value up to the end of the line. */
    private static final Pattern ASSIGNMENT = Pattern.compile(
            "([%A-Za-z0-9_.\"-]*(?:secret|password|passwd|api[-_.]?key|access[-_.]?key|signing[-_.]?key|token|credential)[A-Za-z0-9_.\"-]*)"
                    + "\\s*[=:]\\s*(.*)$", Pattern.CASE_INSENSITIVE);
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern SCANNED = Pattern.compile(
            ".*\\.(properties|ya?ml|env|example|json|sh|py|toml|conf|cfg|ini|md|txt)$|.*Dockerfile.*|.*/\\.env[^/]*$");

    @Test
    void noTrackedFileAssignsALiteralCredential() throws Exception {
        Path repo = Repo.root();
        List<String> files = trackedFiles(repo);
        List<String> findings = new ArrayList<>();
        int scanned = 0;
        for (String file : files) {
            if (file.startsWith("examples/samples/") || !SCANNED.matcher(file).matches() || !Files.isRegularFile(repo.resolve(file))) {
                continue;
            }
            scanned++;
            List<String> lines = Files.readAllLines(repo.resolve(file), StandardCharsets.ISO_8859_1);
            boolean markdown = file.endsWith(".md");
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                if (markdown && lines.get(i).strip().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                for (String code : markdown && !fenced ? inlineCode(lines.get(i)) : List.of(lines.get(i))) {
                    String problem = literalCredential(code);
                    if (problem != null) {
                        findings.add(file + ":" + (i + 1) + ": " + problem);
                    }
                }
            }
        }
        System.out.println("committed-credential scan: " + scanned + " tracked files scanned, " + findings.size() + " finding(s)");
        assertThat(scanned).as("configuration files scanned").isGreaterThan(10);
        assertThat(findings).isEmpty();
    }

    @Test
    void theScanFindsLiteralValuesAndLetsReferencesAndPlaceholdersPass() {
        assertThat(literalCredential("stowage.store.primary.secret-access-key=AKIAEXAMPLEKEY123")).isNotNull();
        assertThat(literalCredential("quarkus.datasource.password=hunter2")).isNotNull();
        assertThat(literalCredential("      STOWAGE_GATE_SIGNING_KEY: 0123456789abcdef0123456789abcdef")).isNotNull();
        assertThat(literalCredential("RUNPOD_API_KEY=rpa_live_123")).isNotNull();
        assertThat(literalCredential("stowage.gate.signing-key=test-only-key")).as("test-only outside %test.").isNotNull();
        assertThat(literalCredential("\"secretAccessKey\": \"abc123\",")).isNotNull();

        assertThat(literalCredential("      STOWAGE_STORE_PRIMARY_SECRET_ACCESS_KEY: ${MINIO_ROOT_PASSWORD}")).isNull();
        assertThat(literalCredential("POSTGRES_PASSWORD=change-me-too")).isNull();
        assertThat(literalCredential("quarkus.datasource.password=")).isNull();
        assertThat(literalCredential("stowage.provider-adapter.runpod.api-key-file=/run/secrets/runpod-api-key")).isNull();
        assertThat(literalCredential("%test.stowage.gate.signing-key=test-only-gate-signing-key-0123456789abcdef")).isNull();
        assertThat(literalCredential("export AWS_SECRET_ACCESS_KEY=\"$SECRET\"")).isNull();
        assertThat(literalCredential("token: <your operator token>")).isNull();
        assertThat(literalCredential("# the secret key is read from the mount")).isNull();
        assertThat(literalCredential(": \"${KAFKA_ADMIN_PASSWORD:?}\" \"${KAFKA_CONTROLLER_PASSWORD:?}\"")).isNull();
        assertThat(literalCredential("%test.stowage.auth.tokens=operator:test-operator:" + "ab".repeat(32))).isNull();
        assertThat(literalCredential("%test.stowage.auth.client-token=test-reader-token-not-a-secret")).isNull();
        assertThat(literalCredential("stowage.auth.client-token=test-reader-token-not-a-secret"))
                .as("a test token outside %test.").isNotNull();
        assertThat(literalCredential("stowage.auth.tokens=operator:ops:not-a-hash")).isNotNull();
        assertThat(inlineCode("a compose secret: no code; set `STOWAGE_GATE_SIGNING_KEY=abc123` or `x`"))
                .containsExactly("STOWAGE_GATE_SIGNING_KEY=abc123", "x");
        assertThat(literalCredential(inlineCode("set `quarkus.datasource.password=hunter2` here").get(0))).isNotNull();
    }

    /** @return the inline code spans of a Markdown line (prose such as "a compose secret: no code" is not configuration) */
    static List<String> inlineCode(String line) {
        List<String> spans = new ArrayList<>();
        Matcher m = INLINE_CODE.matcher(line);
        while (m.find()) {
            spans.add(m.group(1));
        }
        return spans;
    }

    /** @return a description of the literal credential on {@code line}, or null when there is none */
    static String literalCredential(String line) {
        String trimmed = line.strip();
        if (trimmed.startsWith("#") || trimmed.startsWith("//") || trimmed.startsWith("*")) {
            return null;
        }
        Matcher m = ASSIGNMENT.matcher(trimmed);
        if (!m.find()) {
            return null;
        }
        String key = m.group(1).replace("\"", "");
        String value = m.group(2).strip().replaceAll("^[\"']|[\"'],?$", "").strip();
        String lowerKey = key.toLowerCase(Locale.ROOT);
        if (value.isEmpty() || value.startsWith("$") || value.startsWith("<") || value.startsWith("/")
                || value.toLowerCase(Locale.ROOT).startsWith("change-me") || lowerKey.endsWith("-file")
                || lowerKey.endsWith("_file") || value.matches("true|false|\\d+|PT\\w+|\\{|\\[")
                || (key.startsWith("%test.") && (value.startsWith("test-only-") || value.endsWith("-not-a-secret")))
                || value.startsWith("?") // a shell parameter check, : "${KAFKA_ADMIN_PASSWORD:?}"
                || value.matches("((reader|operator):[A-Za-z0-9._-]+:[0-9a-f]{64},?)+")) { // bearer token hashes only

            return null;
        }
        return key + " has a literal value (" + value.length() + " characters; value not shown)";
    }

    private static List<String> trackedFiles(Path repo) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "-C", repo.toString(), "ls-files").redirectErrorStream(true).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(git.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(git.exitValue()).as(out).isZero();
        return out.lines().toList();
    }
}
