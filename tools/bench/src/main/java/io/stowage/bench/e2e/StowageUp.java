package io.stowage.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stowage.bench.ledger.CpuTime;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code stowage up} started as a user starts it ({@code stowage up --volume-root HOT}, through the packaged CLI that
 * the {@code ./stowage} script runs, with its own
 * {@code STOWAGE_HOME}), as a child process: the embedded servers and the six packaged services in their own JVMs.
 * Ready once {@code $STOWAGE_HOME/session.json} exists (written after every service answered ready).
 */
final class StowageUp implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Process process;
    private final Path home;
    private final JsonNode session;

    private StowageUp(Process process, Path home, JsonNode session) {
        this.process = process;
        this.home = home;
        this.session = session;
    }

    /**
     * @param repo the checkout whose {@code ./stowage} script and packaged services are used
     * @param home {@code STOWAGE_HOME} for this run (created)
     * @param hot  the volume root the gate may release directories under
     * @throws IOException when it cannot start, or exits, or has no session within 10 minutes
     */
    static StowageUp start(Path repo, Path home, Path hot) throws IOException, InterruptedException {
        Files.createDirectories(home);
        List<String> command = new java.util.ArrayList<>(cli(repo));
        command.addAll(List.of("up", "--volume-root", hot.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(home.resolve("up.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("STOWAGE_HOME", home.toString());
        Process process = builder.start();
        Path sessionFile = home.resolve("session.json");
        Instant deadline = Instant.now().plus(Duration.ofMinutes(10));
        while (!Files.isRegularFile(sessionFile)) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                process.destroy();
                throw new IOException("stowage up did not start; see " + home.resolve("up.log") + ": "
                        + Files.readString(home.resolve("up.log")));
            }
            Thread.sleep(200);
        }
        StowageUp up = new StowageUp(process, home, MAPPER.readTree(sessionFile.toFile()));
        // stowage up writes the CLI's class archive in the background once it is up; a user's later commands use it
        // (the ./stowage script passes it), so the flows wait for it rather than time the training beside them
        Path archive = up.classArchive(repo);
        Instant archiveDeadline = Instant.now().plus(Duration.ofMinutes(3));
        while (!Files.isRegularFile(archive) && Instant.now().isBefore(archiveDeadline)) {
            Thread.sleep(500);
        }
        System.out.println(Files.isRegularFile(archive) ? "- CLI class archive: " + archive
                : "- CLI class archive: none written within 3 minutes (commands start without it)");
        return up;
    }

    /**
     * @return where {@code stowage up} writes the class archive of the packaged CLI jar, and where the
     *         {@code ./stowage} script looks for it: {@code <home>/class-archive/stowage-cli-<mtime s>-<bytes>.jsa}
     */
    Path classArchive(Path repo) throws IOException {
        Path jar = repo.resolve("tools/cli/target/stowage-cli.jar");
        long mtime = Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS);
        return home.resolve("class-archive").resolve("stowage-cli-" + mtime + "-" + Files.size(jar) + ".jsa");
    }

    /**
     * @return the command line {@code ./stowage} ends in for this session: {@link #cli(Path)} with the class archive's
     *         options when the archive exists at the size recorded beside it, as the script passes them
     */
    List<String> command(Path repo) throws IOException {
        List<String> base = cli(repo);
        Path archive = classArchive(repo);
        Path bytes = archive.resolveSibling(archive.getFileName() + ".bytes");
        if (!Files.isRegularFile(archive) || !Files.isRegularFile(bytes)
                || !Files.readString(bytes).strip().equals(String.valueOf(Files.size(archive)))) {
            return base;
        }
        List<String> command = new java.util.ArrayList<>(base.subList(0, 1));
        command.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-XX:+VerifySharedSpaces", "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off"));
        command.addAll(base.subList(1, base.size()));
        return command;
    }

    /**
     * @return the command line {@code ./stowage} ends in ({@code java -Dstowage.repo=REPO -jar tools/cli/target/stowage-cli.jar}),
     *         without the script's check for changed sources, so that no build is ever timed
     * @throws IllegalStateException when the CLI or a service is not packaged
     */
    static List<String> cli(Path repo) {
        Path jar = repo.resolve("tools/cli/target/stowage-cli.jar");
        for (String service : List.of("shard-builder", "uploader", "verifier", "ledger", "gatekeeper", "provider-adapter")) {
            if (!Files.isRegularFile(repo.resolve("services").resolve(service).resolve("target/quarkus-app/quarkus-run.jar"))) {
                throw new IllegalStateException("package Stowage first (./mvnw -B -q package -DskipTests): no " + service);
            }
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("package Stowage first (./mvnw -B -q package -DskipTests): no " + jar);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-Dstowage.repo=" + repo, "-jar", jar.toString());
    }

    /** @return the environment a CLI command of this session needs ({@code STOWAGE_HOME}) */
    Map<String, String> cliEnvironment() {
        return Map.of("STOWAGE_HOME", home.toString());
    }

    /** @return AWS CLI environment for the session's S3 server (access key, secret, region) */
    Map<String, String> awsEnvironment() {
        JsonNode stack = session.get("stack");
        return Map.of("AWS_ACCESS_KEY_ID", stack.get("s3AccessKey").asText(),
                "AWS_SECRET_ACCESS_KEY", stack.get("s3SecretKey").asText(),
                "AWS_DEFAULT_REGION", stack.get("s3Region").asText(),
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    /**
     * @param work where rclone's (empty) configuration file goes
     * @return rclone environment defining the remote {@code s3} as the session's S3 server (path style)
     */
    Map<String, String> rcloneEnvironment(Path work) {
        JsonNode stack = session.get("stack");
        return Map.of("RCLONE_CONFIG", work.resolve("rclone.conf").toString(),
                "RCLONE_CONFIG_S3_TYPE", "s3",
                "RCLONE_CONFIG_S3_PROVIDER", "Other",
                "RCLONE_CONFIG_S3_ENDPOINT", s3Endpoint(),
                "RCLONE_CONFIG_S3_REGION", stack.get("s3Region").asText(),
                "RCLONE_CONFIG_S3_ACCESS_KEY_ID", stack.get("s3AccessKey").asText(),
                "RCLONE_CONFIG_S3_SECRET_ACCESS_KEY", stack.get("s3SecretKey").asText(),
                "RCLONE_CONFIG_S3_FORCE_PATH_STYLE", "true");
    }

    /** @return the S3 endpoint URL, e.g. {@code http://127.0.0.1:41234} */
    String s3Endpoint() {
        return session.get("stack").get("s3Endpoint").asText();
    }

    /** @return the primary bucket's name */
    String primaryBucket() {
        return session.get("stack").get("primaryBucket").asText();
    }

    /** @return the base URL of the session's service {@code name} (instance 1), e.g. {@code http://127.0.0.1:41234} */
    String serviceUrl(String name) {
        return session.get("services").get(name).asText();
    }

    /** @return JDBC URL, role and password of the session's PostgreSQL (the ledger's database) */
    List<String> database() {
        JsonNode stack = session.get("stack");
        return List.of(stack.get("pgJdbcUrl").asText(), stack.get("pgUser").asText(), stack.get("pgPassword").asText());
    }

    /**
     * @param service a service name such as {@code ledger}
     * @return the process id of its first JVM under this {@code stowage up} (the process alive now: after a restart,
     *         the new one)
     * @throws IllegalStateException when no JVM of it is running
     */
    long servicePid(String service) {
        return process.descendants().filter(p -> p.info().arguments().map(List::of).orElse(List.of()).stream()
                        .anyMatch(a -> a.endsWith("services/" + service + "/target/quarkus-app/quarkus-run.jar")))
                .mapToLong(ProcessHandle::pid).min()
                .orElseThrow(() -> new IllegalStateException("no " + service + " JVM under this stowage up"));
    }

    /**
     * @return the environment process {@code pid} was started with, from {@code /proc/PID/environ} (readable for a
     *         process of the same user), e.g. a service's Kafka login ({@code KAFKA_SASL_JAAS_CONFIG})
     */
    static Map<String, String> environmentOf(long pid) throws IOException {
        Map<String, String> env = new java.util.TreeMap<>();
        for (String entry : new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "environ")),
                java.nio.charset.StandardCharsets.UTF_8).split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }

    /**
     * @return CPU seconds (user + system) used so far by the six service JVMs ({@code quarkus-run.jar} processes
     *         under this {@code stowage up}); the servers of the stack are left out, since the reference tools use
     *         the same S3 server
     */
    double servicesCpuSeconds() {
        return process.descendants().filter(StowageUp::isService).mapToDouble(p -> CpuTime.of(p.pid())).sum();
    }

    /**
     * @return CPU seconds (user + system) used so far per process of this {@code stowage up}: each service JVM by its
     *         service's name ({@code uploader}; {@code uploader#2} for a second JVM of it), {@code kafka} and
     *         {@code s3proxy} (the stack's server JVMs), {@code up} (the {@code stowage up} JVM itself) and
     *         {@code other}, over the descendants alive now; and {@code postgres}: PostgreSQL daemonizes out of the
     *         process tree, so its postmaster is found by its data directory under this run's home ({@code -D} on
     *         its command line) and counted with its backends alive now (a backend that exited is not counted)
     */
    Map<String, Double> cpuByProcess() {
        Map<String, Double> cpu = new java.util.TreeMap<>();
        cpu.put("up", CpuTime.of(process.pid()));
        postmaster().ifPresent(pg -> cpu.put("postgres", CpuTime.of(pg.pid())
                + pg.descendants().mapToDouble(p -> CpuTime.of(p.pid())).sum()));
        process.descendants().forEach(p -> {
            List<String> args = p.info().arguments().map(List::of).orElse(List.of());
            java.util.Optional<String> service = args.stream().filter(a -> a.endsWith("quarkus-run.jar")).findFirst()
                    .map(jar -> Path.of(jar).getParent().getParent().getParent().getFileName().toString());
            if (service.isPresent()) {
                String key = service.get();
                for (int n = 2; cpu.containsKey(key); n++) {
                    key = service.get() + "#" + n;
                }
                cpu.put(key, CpuTime.of(p.pid()));
            } else {
                String line = " " + commandLine(p) + " ";
                String key = line.contains("-jar ") && line.contains("s3proxy.jar ") ? "s3proxy"
                        : line.contains(" io.stowage.stack.KafkaBrokerMain ") ? "kafka" : "other";
                cpu.merge(key, CpuTime.of(p.pid()), Double::sum);
            }
        });
        return cpu;
    }

    /** @return the PostgreSQL postmaster whose data directory ({@code -D DIR}) lies under this run's home, if running */
    private java.util.Optional<ProcessHandle> postmaster() {
        String under = home.toAbsolutePath().normalize() + "/";
        return ProcessHandle.allProcesses().filter(p -> {
            List<String> words = List.of(commandLine(p).split(" "));
            int d = words.indexOf("-D");
            return d >= 0 && d + 1 < words.size() && words.get(0).endsWith("postgres")
                    && Path.of(words.get(d + 1)).toAbsolutePath().normalize().toString().startsWith(under);
        }).findFirst();
    }

    /** @return the process's whole command line from {@code /proc/PID/cmdline} (which is never cut short), or "" */
    private static String commandLine(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(p.pid()), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * @return {@code after - before} per process name, largest first, as {@code name 1.23} pairs joined by commas;
     *         a process that started in between counts from zero
     */
    static String cpuDelta(Map<String, Double> before, Map<String, Double> after) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0.0)))
                .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
                .map(e -> String.format(java.util.Locale.ROOT, "%s %.2f", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static boolean isService(ProcessHandle process) {
        return process.info().arguments().map(List::of).orElse(List.of()).stream().anyMatch(a -> a.endsWith("quarkus-run.jar"));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
