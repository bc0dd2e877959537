package io.stowage.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkout's {@code stowage} script builds when a main source is newer than the built CLI, and only then. It runs
 * here from a copy of the script in a scratch checkout whose {@code mvnw} records each call and, like the jar plugin
 * when only a library changed, leaves the CLI jar as it was, and whose {@code java} prints its arguments.
 */
class LauncherScriptTest {
    private static final List<String> SERVICES = List.of("shard-builder", "uploader", "verifier", "ledger",
            "gatekeeper", "provider-adapter");
    @TempDir
    Path repo;

    @Test
    void aLibraryChangeBuildsOnceNotAtEveryCommand() throws Exception {
        Path jar = scratchCheckout("echo \"$*\" >> \"$(dirname \"$0\")/builds.log\"", "echo \"ran $*\"");
        Instant built = Instant.now().minusSeconds(3600);
        Files.setLastModifiedTime(jar, FileTime.from(built));
        Path library = write("libs/store/src/main/java/Store.java", "class Store {}");
        Files.setLastModifiedTime(library, FileTime.from(built.plusSeconds(60)));

        String first = run("--version");
        String second = run("--version");

        assertThat(first).contains("==> building Stowage").contains("ran ").contains("-jar " + jar);
        assertThat(second).doesNotContain("building").contains("ran ");
        assertThat(Files.readAllLines(repo.resolve("builds.log"))).as("one build for one change")
                .containsExactly("-B -q package -DskipTests");

        Files.setLastModifiedTime(library, FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(run("--version")).as("a later change builds again").contains("==> building Stowage");
        assertThat(Files.readAllLines(repo.resolve("builds.log"))).hasSize(2);
    }

    @Test
    void aLocaleThatIsNotUtf8IsReplacedSoFileNamesReadAsUtf8() throws Exception {
        scratchCheckout("exit 0", "echo \"LC_ALL=[${LC_ALL:-}]\"");

        assertThat(run(Map.of("LANG", "C"), "--version")).contains("LC_ALL=[C.UTF-8]");
        assertThat(run(Map.of("LANG", "POSIX"), "--version")).contains("LC_ALL=[C.UTF-8]");
        assertThat(run(Map.of("LANG", "en_US.UTF-8"), "--version")).as("a UTF-8 locale is kept").contains("LC_ALL=[]");
        assertThat(run(Map.of("LC_ALL", "de_DE.utf8"), "--version")).contains("LC_ALL=[de_DE.utf8]");
    }

    /**
     * Copies the script into the scratch checkout beside a fake {@code mvnw} and {@code java} running the given bash
     * lines, a built CLI jar and every service's built jar.
     *
     * @return the CLI jar
     */
    private Path scratchCheckout(String mvnw, String java) throws Exception {
        Files.copy(Repo.root().resolve("stowage"), repo.resolve("stowage"));
        executable(repo.resolve("stowage"));
        executable(write("mvnw", "#!/usr/bin/env bash\n" + mvnw + "\n"));
        executable(write("jdk/bin/java", "#!/usr/bin/env bash\n" + java + "\n"));
        Path jar = write("tools/cli/target/stowage-cli.jar", "jar");
        for (String service : SERVICES) {
            write("services/" + service + "/target/quarkus-app/quarkus-run.jar", "jar");
        }
        return jar;
    }

    private String run(String... args) throws Exception {
        return run(Map.of(), args);
    }

    private String run(Map<String, String> locale, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(repo.resolve("stowage").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        if (!locale.isEmpty()) {
            env.remove("LANG");
            env.remove("LC_ALL");
            env.remove("LC_CTYPE");
            env.putAll(locale);
        }
        env.put("JAVA_HOME", repo.resolve("jdk").toString());
        env.put("STOWAGE_HOME", repo.resolve("home").toString());
        env.remove("STOWAGE_REBUILD");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    private Path write(String path, String text) throws Exception {
        Path file = repo.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static Path executable(Path file) throws Exception {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
