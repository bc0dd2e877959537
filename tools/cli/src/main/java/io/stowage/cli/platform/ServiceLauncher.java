package io.stowage.cli.platform;

import io.stowage.cli.CliException;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.KafkaSecurity;
import io.stowage.stack.OrphanReaper;
import io.stowage.stack.StackEndpoints;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts the six packaged Quarkus services ({@code services/<name>/target/quarkus-app/quarkus-run.jar}) and then the
 * operator console ({@link #CONSOLE})
 * as separate child processes on free loopback ports, wired to a running stack through environment
 * variables, waits for each one's {@code /q/health/ready}, and stops them all on {@link #close()}.
 * Each service logs to {@code <logs>/<name>.log}. Once all are ready a {@link ServiceSupervisor} starts again any that
 * exits (lines on standard error and in {@code <logs>/supervision.log}, state in {@code <logs>/../services.json}).
 * A watchdog ({@link OrphanReaper}) stops them if this JVM dies without closing them.
 */
public final class ServiceLauncher implements AutoCloseable {
    /** The services in start order. */
    public static final List<String> SERVICES = List.of("ledger", "shard-builder", "uploader", "verifier",
            "gatekeeper", "provider-adapter");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    /** Only these two hold the gate signing key: one signs decisions, the other verifies them. */
    private static final List<String> SIGNING_SERVICES = List.of("gatekeeper", "provider-adapter");
    /** The operator console: started after the six, it reads only their HTTP APIs (no store, database or Kafka access). */
    public static final String CONSOLE = "console";
    /**
     * The services that may run as several instances in one consumer group: the verifier (stateless, its scrub on the
     * cluster lease), the uploader (its multipart sweep on the lease; its pending steps per instance, each instance
     * reading every {@code object.verified}), the gatekeeper (a decision derives from its request, whichever
     * instance makes it) and the provider-adapter as one active instance and standbys ({@link #STANDBY_SERVICES}).
     */
    public static final List<String> MULTI_INSTANCE = List.of("uploader", "verifier", "gatekeeper", "provider-adapter");
    /**
     * Services whose instances share one state directory and of which one is active at a time: the provider-adapter
     * (its release and retention journals, retention schedules and volume and pod records are one process's state).
     * Every instance gets the same {@code STOWAGE_PROVIDER_ADAPTER_STATE_DIR}; the one holding its {@code active.lock}
     * runs, the others wait as standbys (no consumer group, no HTTP) and one takes over when it exits. A standby
     * counts as started once it logs {@link #STANDBY_LINE}.
     */
    public static final List<String> STANDBY_SERVICES = List.of("provider-adapter");
    /** The start of the line a provider-adapter standby logs ({@code ActiveInstance.STANDBY_LINE} of the service). */
    public static final String STANDBY_LINE = "provider-adapter standby: another instance holds the state directory";
    /** The most instances of one service {@code stowage up} starts. */
    public static final int MAX_INSTANCES = 4;
    /** These read the ledger's API and present the session's services token (the ledger's API needs one). */
    private static final List<String> LEDGER_CLIENTS = List.of("gatekeeper", "verifier", "shard-builder", "provider-adapter");

    private final Map<String, Process> processes = new LinkedHashMap<>();
    /** Every service process started and still alive, as the orphan watchdog's pid file lists them. */
    private final List<Process> tracked = new ArrayList<>();
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Map<String, Launch> launches = new LinkedHashMap<>();
    /** Per instance, the length of its log when its current process was started: its own lines come after. */
    private final Map<String, Long> logStarts = new java.util.concurrent.ConcurrentHashMap<>();
    private OrphanReaper reaper;
    private ServiceSupervisor supervisor;

    /**
     * Starts every service and waits until all are ready.
     *
     * @param repo           the Stowage checkout whose services were packaged
     * @param stack          the running servers
     * @param protectedRoots directories the gate must never release (comma-separated for the services)
     * @param volumeRoots    the volumes whose directories may be released (gatekeeper and provider-adapter); the local
     *                       provider's volumes root ({@code <logs>/../volumes}) is always added
     * @param stagingDir     the shard-builder's staging directory; with the volume roots, the only directories whose
     *                       files the uploader reads ({@code STOWAGE_UPLOADER_ROOTS})
     * @throws CliException when a jar is missing, a service exits, or it is not ready within 180 s
     */
    public static ServiceLauncher start(Path repo, StackEndpoints stack, Path logs, List<Path> protectedRoots,
                                        List<Path> volumeRoots, Path stagingDir) throws IOException {
        return start(repo, stack, logs, protectedRoots, volumeRoots, stagingDir, newSigningKey());
    }

    /**
     * Like {@link #start(Path, StackEndpoints, Path, List, List, Path)} with a given gate signing key instead of a
     * random one (the secrets canary test passes a recognisable one). The key reaches the gatekeeper and the
     * provider-adapter only, by environment ({@code STOWAGE_GATE_SIGNING_KEY}).
     *
     * @param signingKey the gate's HMAC key, at least 32 bytes
     */
    public static ServiceLauncher start(Path repo, StackEndpoints stack, Path logs, List<Path> protectedRoots,
                                        List<Path> volumeRoots, Path stagingDir, String signingKey) throws IOException {
        return start(repo, stack, logs, protectedRoots, volumeRoots, stagingDir, signingKey, null);
    }

    /**
     * Like {@link #start(Path, StackEndpoints, Path, List, List, Path, String)} against a broker with SCRAM users and
     * ACLs: each service logs in as its own user ({@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SASL_MECHANISM},
     * {@code KAFKA_SASL_JAAS_CONFIG}, the variables compose sets), and gets no other service's password.
     *
     * @param signingKey the gate's HMAC key, at least 32 bytes, or null for a random one
     * @param kafka      the broker's users, or null for a broker without authentication
     */
    public static ServiceLauncher start(Path repo, StackEndpoints stack, Path logs, List<Path> protectedRoots,
                                        List<Path> volumeRoots, Path stagingDir, String signingKey, KafkaSecurity kafka)
            throws IOException {
        return start(repo, stack, logs, protectedRoots, volumeRoots, stagingDir, signingKey, kafka, Map.of());
    }

    /**
     * Like {@link #start(Path, StackEndpoints, Path, List, List, Path, String, KafkaSecurity)} with several instances of
     * some services: instance 1 is named after its service ({@code uploader}), instance {@code n} is
     * {@code <service>-<n>} ({@code uploader-2}) with its own port, log ({@code <logs>/uploader-2.log}), state directory
     * ({@code <logs>/../state/uploader-2}) and {@code STOWAGE_INSTANCE=n}, in the same consumer groups. Each instance is
     * supervised on its own; the CLI and the console talk to instance 1.
     *
     * @param instances service name to number of instances (1 to {@link #MAX_INSTANCES}); a service not named runs once
     * @throws CliException (exit 2) naming the service when it may not run as several instances ({@link #MULTI_INSTANCE})
     *                      or the number is out of range
     */
    public static ServiceLauncher start(Path repo, StackEndpoints stack, Path logs, List<Path> protectedRoots,
                                        List<Path> volumeRoots, Path stagingDir, String signingKey, KafkaSecurity kafka,
                                        Map<String, Integer> instances) throws IOException {
        requireInstances(instances);
        if (signingKey == null) {
            signingKey = newSigningKey();
        }
        ServiceLauncher launcher = new ServiceLauncher();
        try {
            Files.createDirectories(logs);
            launcher.reaper = OrphanReaper.watch(logs);
            Map<String, Integer> ports = new LinkedHashMap<>();
            Map<String, String> serviceOf = new LinkedHashMap<>();
            Map<String, Integer> numberOf = new LinkedHashMap<>();
            for (String service : SERVICES) {
                for (int i = 1; i <= instances.getOrDefault(service, 1); i++) {
                    String name = instanceName(service, i);
                    ports.put(name, freePort());
                    serviceOf.put(name, service);
                    numberOf.put(name, i);
                }
            }
            strandedPendingSteps(logs, serviceOf.keySet()).forEach((name, steps) -> System.err.println("==> " + name
                    + " is not started this time, and its state (" + uploaderState(logs, name) + ") holds " + steps
                    + " checkpoint step(s) whose latest pointer waits for it: start it again (stowage up --instances "
                    + "uploader=" + name.substring("uploader-".length()) + ") to write them"));
            // bearer tokens: the services get only hashes, in one tokens file they re-read when it changes (token create,
            // token revoke); the CLI's tokens go to <home>/tokens (mode 600)
            ServiceTokens tokens = ServiceTokens.generate();
            tokens.write(logs.resolveSibling("tokens"));
            TokensFile tokensFile = new TokensFile(logs.resolveSibling("tokens").resolve(TokensFile.NAME).toAbsolutePath());
            tokensFile.replaceSession(tokens.lines());
            String ledgerUrl = "http://127.0.0.1:" + ports.get("ledger");
            for (Map.Entry<String, Integer> instance : ports.entrySet()) {
                String service = serviceOf.get(instance.getKey());
                // least privilege: store keys only for uploader/verifier, the database only for the ledger
                Map<String, String> env = new LinkedHashMap<>(ServiceCredentials.narrow(service, stack.environment()));
                if (kafka != null) {
                    env.putAll(kafka.environment(service));
                }
                env.put("STOWAGE_INSTANCE", String.valueOf(numberOf.get(instance.getKey())));
                env.put("QUARKUS_HTTP_PORT", String.valueOf(instance.getValue()));
                env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
                env.put("STOWAGE_LEDGER_URL", ledgerUrl);
                env.put("STOWAGE_GATE_PROTECTED_ROOTS", String.join(",", protectedRoots.stream().map(Path::toString).toList()));
                env.put("STOWAGE_SHARD_BUILDER_STAGING_DIR", stagingDir.toString());
                // the local provider's volumes are released through the gate too, so their root is a volume root
                List<Path> releasable = new ArrayList<>(volumeRoots);
                releasable.add(logs.resolveSibling("volumes").toAbsolutePath().normalize());
                String volumes = String.join(",", releasable.stream().map(Path::toString).distinct().toList());
                env.put("STOWAGE_GATEKEEPER_VOLUME_ROOTS", volumes);
                env.put("STOWAGE_PROVIDER_ADAPTER_VOLUME_ROOTS", volumes);
                // the uploader reads files only under these: what the shard-builder and the CLI stage, and the volumes
                env.put("STOWAGE_UPLOADER_ROOTS", stagingDir.toAbsolutePath().normalize() + "," + volumes);
                if (SIGNING_SERVICES.contains(service)) {
                    env.put("STOWAGE_GATE_SIGNING_KEY", signingKey);
                }
                env.put("STOWAGE_AUTH_TOKENS_FILE", tokensFile.path().toString());
                if (LEDGER_CLIENTS.contains(service)) {
                    env.put("STOWAGE_AUTH_CLIENT_TOKEN", tokens.services());
                }
                env.put("STOWAGE_PROVIDER_ADAPTER_STATE_DIR", logs.resolveSibling("state").resolve("provider-adapter").toString());
                // volumes of the local provider live beside the session; a local platform allows sweep drills
                env.put("STOWAGE_PROVIDER_ADAPTER_VOLUMES_ROOT", logs.resolveSibling("volumes").toString());
                env.put("STOWAGE_PROVIDER_ADAPTER_SWEEP_AT_ALLOWED", "true");
                // each uploader instance keeps its own multipart journals and pending steps, and the one that sweeps
                // abandoned multipart uploads reads the others' journals so as never to abort an upload they resume
                env.put("STOWAGE_UPLOADER_STATE_DIR", uploaderState(logs, service.equals("uploader")
                        ? instance.getKey() : "uploader").toString());
                List<Path> peers = uploaderPeers(serviceOf, instance.getKey(), logs);
                if (!peers.isEmpty()) {
                    env.put("STOWAGE_UPLOADER_PEER_STATE_DIRS", String.join(",", peers.stream().map(Path::toString).toList()));
                }
                launcher.launch(repo, service, instance.getKey(), env, logs.resolve(instance.getKey() + ".log"));
                launcher.urls.put(instance.getKey(), "http://127.0.0.1:" + instance.getValue());
            }
            launcher.launchConsole(repo, logs, launcher.urls, tokensFile);
            for (Map.Entry<String, String> service : launcher.urls.entrySet()) {
                launcher.awaitReady(service.getKey(), service.getValue(), logs.resolve(service.getKey() + ".log"));
            }
            launcher.requireAllAlive(logs);
            launcher.supervise(logs, RestartBackoff.DEFAULT);
            return launcher;
        } catch (RuntimeException | IOException e) {
            launcher.close();
            throw e;
        }
    }

    /**
     * @param serviceOf instance name to service name, for every instance started
     * @return for an uploader instance, the state directories of the other uploader instances (whose multipart
     *         journals its sweep must keep); empty for a single uploader and for any other service
     */
    static List<Path> uploaderPeers(Map<String, String> serviceOf, String instance, Path logs) {
        if (!"uploader".equals(serviceOf.get(instance))) {
            return List.of();
        }
        return serviceOf.entrySet().stream()
                .filter(e -> e.getValue().equals("uploader") && !e.getKey().equals(instance))
                .map(e -> uploaderState(logs, e.getKey())).toList();
    }

    /**
     * Finds the checkpoint steps that an uploader instance started before, but not now, still holds: each instance keeps
     * its pending steps in its own state directory and reads the verification results in its own consumer group, so
     * only that instance, started again with its state, writes their latest pointer.
     *
     * @param logs    the session's log directory; the states are {@code <logs>/../state/uploader-<n>}
     * @param started every instance name started now ({@link #instanceName})
     * @return instance name ({@code uploader-2}) to the number of pending steps in its state ({@code pointers/step-*.json}),
     *         for each instance not started that has at least one, in name order; empty when the states cannot be listed
     */
    static Map<String, Integer> strandedPendingSteps(Path logs, java.util.Set<String> started) {
        Map<String, Integer> stranded = new java.util.TreeMap<>();
        Path states = logs.resolveSibling("state");
        if (!Files.isDirectory(states)) {
            return stranded;
        }
        try (var dirs = Files.list(states)) {
            for (Path dir : dirs.toList()) {
                String name = dir.getFileName().toString();
                Path pointers = dir.resolve("pointers");
                if (!name.matches("uploader-[1-9][0-9]*") || started.contains(name) || !Files.isDirectory(pointers)) {
                    continue;
                }
                try (var files = Files.list(pointers)) {
                    int steps = (int) files.map(p -> p.getFileName().toString())
                            .filter(f -> f.startsWith("step-") && f.endsWith(".json")).count();
                    if (steps > 0) {
                        stranded.put(name, steps);
                    }
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return stranded;
    }

    /** @return the state directory of the uploader instance {@code name}: {@code <logs>/../state/<name>} */
    private static Path uploaderState(Path logs, String name) {
        return logs.resolveSibling("state").resolve(name);
    }

    /**
     * @param instance an instance name such as {@code provider-adapter-2} (the inverse of {@link #instanceName})
     * @return its service among {@link #SERVICES}, or empty for any other name
     */
    public static java.util.Optional<String> serviceOf(String instance) {
        return SERVICES.stream().filter(s -> instance.equals(s)
                || instance.matches(java.util.regex.Pattern.quote(s) + "-[1-9][0-9]*")).findFirst();
    }

    /** @return {@code service} for instance 1, {@code service-n} for instance n */
    public static String instanceName(String service, int n) {
        return n == 1 ? service : service + "-" + n;
    }

    /**
     * @throws CliException (exit 2) naming the service when it may not run as several instances or the number is not
     *                      between 1 and {@link #MAX_INSTANCES}
     */
    public static void requireInstances(Map<String, Integer> instances) {
        for (Map.Entry<String, Integer> e : instances.entrySet()) {
            if (!SERVICES.contains(e.getKey())) {
                throw new CliException(CliException.USAGE, "--instances: no service " + e.getKey() + " (one of "
                        + String.join(", ", SERVICES) + ")");
            }
            int n = e.getValue() == null ? 0 : e.getValue();
            if (n < 1 || n > MAX_INSTANCES) {
                throw new CliException(CliException.USAGE, "--instances " + e.getKey() + "=" + e.getValue()
                        + ": between 1 and " + MAX_INSTANCES);
            }
            if (n > 1 && !MULTI_INSTANCE.contains(e.getKey())) {
                throw new CliException(CliException.USAGE, "--instances " + e.getKey() + "=" + n + ": the "
                        + e.getKey() + " runs as one instance only; several instances: " + String.join(", ", MULTI_INSTANCE));
            }
        }
    }

    /** @return service name to base URL, e.g. {@code ledger -> http://127.0.0.1:41234}, in start order */
    public Map<String, String> urls() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(urls));
    }

    /** A service whose port was taken answers health from someone else's process, then exits: catch that. */
    private void requireAllAlive(Path logs) {
        for (String name : urls.keySet()) {
            if (!process(name).isAlive()) {
                throw new CliException(CliException.FAILED, "service " + name + " exited during start-up; see "
                        + logs.resolve(name + ".log"));
            }
        }
    }

    private synchronized Process process(String name) {
        return processes.get(name);
    }

    /** From now on, a service that exits is started again after {@code backoff}. */
    private void supervise(Path logs, RestartBackoff backoff) {
        Path log = logs.resolve("supervision.log");
        supervisor = new ServiceSupervisor(this::relaunch, backoff, logs.resolveSibling("services.json"), line -> {
            System.err.println(line);
            try {
                Files.writeString(log, java.time.Instant.now() + " " + line + "\n", java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.err.println("==> cannot append to " + log + ": " + e.getMessage());
            }
        }, java.time.Clock.systemUTC());
        urls.keySet().forEach(name -> supervisor.watch(name, process(name)));
    }

    /** Starts service {@code name} again as it was first started and waits until it is ready; stops it when it is not. */
    private Process relaunch(String name) throws IOException {
        Launch launch = launches.get(name);
        markLogStart(name, launch.log());
        Process process = start(launch.repo(), launch.service(), launch.env(),
                ProcessBuilder.Redirect.appendTo(launch.log().toFile()));
        synchronized (this) {
            processes.put(name, process);
        }
        try {
            awaitReady(name, urls.get(name), launch.log());
            return process;
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** @return the process id of service {@code name} as it runs now (a restart changes it) */
    public long pid(String name) {
        Process process = process(name);
        if (process == null) {
            throw new CliException(CliException.FAILED, "no service " + name + " was started");
        }
        return process.pid();
    }

    /**
     * From now on, a server of {@code stack} (Kafka, S3Proxy, PostgreSQL) that ends is started again, after the same
     * backoff as a service, on its port and data ({@link EmbeddedStack#restartServer}); lines on standard error and in
     * the supervision log say so, and {@code services.json} lists the servers after the services.
     */
    public void supervise(EmbeddedStack stack) {
        ServiceSupervisor.Servers servers = new ServiceSupervisor.Servers() {
            @Override
            public ProcessHandle restart(String name) throws IOException {
                return stack.restartServer(name);
            }

            @Override
            public Integer exitCode(String name) {
                return stack.serverExitCode(name);
            }
        };
        for (String name : EmbeddedStack.SERVERS) {
            ProcessHandle handle = stack.serverProcess(name).orElseThrow(() -> new CliException(CliException.FAILED,
                    "server " + name + " is not running"));
            supervisor.watchServer(name, handle, servers);
        }
    }

    /** @return each service's process, restarts and last restart, as {@code services.json} has it */
    public SupervisionState supervision() {
        return supervisor.state();
    }

    /** How one service instance was started: enough to start it again the same way. */
    private record Launch(Path repo, String service, Map<String, String> env, Path log) {
    }

    /**
     * Stops service {@code name} (SIGTERM, then SIGKILL after 10 s) and starts it again with the same environment,
     * port and log (appended), then waits until it is ready; for end-to-end tests that need a service down for a while.
     * Supervision leaves the service alone meanwhile (this stop is not an exit to repair) and counts no restart.
     *
     * @param stopped runs while the service is down (e.g. damage an object before the verifier reads it)
     * @throws CliException when the service is unknown, or does not come back within 180 s
     */
    public void restart(String name, Runnable stopped) throws IOException {
        Launch launch = launches.get(name);
        if (launch == null) {
            throw new CliException(CliException.FAILED, "no service " + name + " was started");
        }
        if (supervisor != null) {
            supervisor.hold(name);
        }
        Process old = process(name);
        old.destroy();
        try {
            if (!old.waitFor(10, TimeUnit.SECONDS)) {
                old.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(CliException.FAILED, "interrupted while stopping " + name);
        }
        stopped.run();
        markLogStart(name, launch.log());
        Process process = start(launch.repo(), launch.service(), launch.env(),
                ProcessBuilder.Redirect.appendTo(launch.log().toFile()));
        synchronized (this) {
            processes.put(name, process);
        }
        awaitReady(name, urls.get(name), launch.log());
        if (supervisor != null) {
            supervisor.watch(name, process);
        }
    }

    /**
     * Starts the console with only what it needs: its port, the four services' URLs and the tokens file every service
     * reads. No store, database or Kafka setting reaches it; each page calls the services with the viewer's own token.
     */
    private void launchConsole(Path repo, Path logs, Map<String, String> services, TokensFile tokens) throws IOException {
        int port = freePort();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("STOWAGE_CONSOLE_LEDGER_URL", services.get("ledger"));
        env.put("STOWAGE_CONSOLE_GATEKEEPER_URL", instanceUrls(services, "gatekeeper"));
        env.put("STOWAGE_CONSOLE_PROVIDER_ADAPTER_URL", instanceUrls(services, "provider-adapter"));
        env.put("STOWAGE_CONSOLE_VERIFIER_URL", instanceUrls(services, "verifier"));
        env.put("STOWAGE_AUTH_TOKENS_FILE", tokens.path().toString());
        launch(repo, CONSOLE, CONSOLE, env, logs.resolve(CONSOLE + ".log"));
        urls.put(CONSOLE, "http://127.0.0.1:" + port);
    }

    /**
     * @param services instance name to base URL, instances of one service in instance order
     * @param service  a service name
     * @return the base URLs of every instance of {@code service}, comma-separated, instance 1 first: the console moves
     *         from an instance that refuses the connection (a provider-adapter standby, a restarting instance) to the next
     */
    static String instanceUrls(Map<String, String> services, String service) {
        return services.entrySet().stream().filter(e -> serviceOf(e.getKey()).filter(service::equals).isPresent())
                .map(Map.Entry::getValue).collect(java.util.stream.Collectors.joining(","));
    }

    private void launch(Path repo, String service, String name, Map<String, String> env, Path log) throws IOException {
        launches.put(name, new Launch(repo, service, Map.copyOf(env), log));
        markLogStart(name, log);
        Process process = start(repo, service, env, ProcessBuilder.Redirect.to(log.toFile()));
        synchronized (this) {
            processes.put(name, process);
        }
    }

    private Process start(Path repo, String service, Map<String, String> env, ProcessBuilder.Redirect log) throws IOException {
        Path jar = repo.resolve("services").resolve(service).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new CliException(CliException.FAILED, "service " + service + " is not built: no " + jar
                    + " (run ./mvnw -B package -DskipTests, or use ./stowage which builds on first use)");
        }
        // The full tiered JIT (C2): the services' hot loops (SHA-256, tar, zstd, copying) run about ten times
        // slower under C1 alone (-XX:TieredStopAtLevel=1: SHA-256 about 150 MiB/s instead of about 1,700 MiB/s).
        ProcessBuilder builder = new ProcessBuilder(javaBinary(), "-Xmx256m", "-XX:+UseSerialGC",
                "-jar", jar.toString());
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(log)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process process = builder.start();
        // the watchdog signals only processes alive now: a restarted service's old pid may already belong to another
        synchronized (tracked) {
            tracked.add(process);
            tracked.removeIf(p -> !p.isAlive());
            reaper.trackOnly(tracked.stream().map(Process::pid).toList());
        }
        return process;
    }

    private void awaitReady(String name, String url, Path log) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        Process process = process(name);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new CliException(CliException.FAILED, "service " + name + " exited with code "
                        + process.exitValue() + " during start-up; see " + log);
            }
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(url + "/q/health/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet; a standby never listens
                if (isStandby(name, log)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(CliException.FAILED, "interrupted while waiting for " + name);
            }
            pause(250);
        }
        throw new CliException(CliException.FAILED, "service " + name + " was not ready within "
                + READY_TIMEOUT.toSeconds() + " s; see " + log);
    }

    private void markLogStart(String name, Path log) {
        try {
            logStarts.put(name, Files.exists(log) ? Files.size(log) : 0L);
        } catch (IOException e) {
            logStarts.put(name, 0L);
        }
    }

    /**
     * @return true when instance {@code name} is of a {@link #STANDBY_SERVICES} service and its current process logged
     *         {@link #STANDBY_LINE} (after the log's length at its start)
     */
    private boolean isStandby(String name, Path log) {
        Launch launch = launches.get(name);
        if (launch == null || !STANDBY_SERVICES.contains(launch.service())) {
            return false;
        }
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(log.toFile(), "r")) {
            long from = logStarts.getOrDefault(name, 0L);
            if (file.length() <= from) {
                return false;
            }
            byte[] tail = new byte[(int) Math.min(file.length() - from, 1 << 20)];
            file.seek(from);
            file.readFully(tail);
            return new String(tail, java.nio.charset.StandardCharsets.UTF_8).contains(STANDBY_LINE);
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops every service (SIGTERM, then SIGKILL after 10 s), newest first. Idempotent. */
    @Override
    public void close() {
        if (supervisor != null) {
            supervisor.close();
        }
        List<Process> running;
        synchronized (this) {
            running = new ArrayList<>(processes.values());
        }
        java.util.Collections.reverse(running);
        running.forEach(Process::destroy);
        for (Process process : running) {
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            processes.clear();
        }
        if (reaper != null) {
            reaper.close();
        }
    }

    /** @return a fresh random key for this run's gate decisions (256 bits, base64), handed to the two services by environment */
    private static String newSigningKey() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return java.util.Base64.getEncoder().withoutPadding().encodeToString(key);
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() {
        try {
            // below the ephemeral range: a service binds its port seconds after the pick, while Kafka clients open
            // connections whose local ports come from that range
            return io.stowage.stack.LoopbackPorts.pick();
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "no free port on loopback: " + e.getMessage(), e);
        }
    }

    /**
     * Sleeps between two polls of a service.
     *
     * @param millis milliseconds to wait
     * @throws CliException (exit 1) when the thread is interrupted (its interrupt flag is set again)
     */
    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(CliException.FAILED, "interrupted");
        }
    }
}
