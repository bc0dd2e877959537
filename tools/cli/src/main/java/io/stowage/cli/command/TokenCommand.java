package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.ServiceTokens;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.platform.TokensFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage token create|revoke|list}: bearer tokens for the services' HTTP APIs (docs/security/tokens.md). With a
 * {@code stowage up} running for this {@code $STOWAGE_HOME}, {@code create} appends the new token's hash line to its
 * tokens file ({@link TokensFile}), which the services re-read within about a second, so the token works without a
 * restart; without one it prints the line to add. {@code revoke} removes a name's lines from that file; {@code list}
 * shows names, roles and expiry. The token itself is shown once, on standard output, and stored nowhere. Who may write
 * the file (its owner, mode 600) may make tokens: no service is asked.
 */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Bearer tokens for the services' HTTP APIs.",
        subcommands = {TokenCommand.Create.class, TokenCommand.Revoke.class, TokenCommand.ListTokens.class})
public final class TokenCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** @return true when a {@code stowage up} of this home is alive and has written its tokens file */
    static boolean upRunning(StowageHome home, TokensFile file) {
        if (!Files.isRegularFile(home.session()) || !file.exists()) {
            return false;
        }
        try {
            Session.readFrom(home.session());
            return true;
        } catch (CliException e) {
            return false;
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Make a new token; with stowage up running, add its hash line to the services' tokens file.")
    static final class Create implements Callable<Integer> {
        @Option(names = "--role", required = true, description = "reader (GETs only) or operator (also releases, volume and pod actions).")
        String role;
        @Option(names = "--name", required = true, description = "Who holds it (1-64 of A-Z a-z 0-9 . _ -); recorded in events, e.g. release.refused.")
        String name;
        @Option(names = "--expires", description = "Refused after this long, e.g. 30d, 12h, PT90M; 0 (the default) for no"
                + " expiry.")
        Duration expires;
        @Option(names = "--json", description = "Print {\"token\",\"line\",\"file\",\"added\"} as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (!role.equals("reader") && !role.equals("operator")) {
                throw new CliException(CliException.USAGE, "--role must be reader or operator, not '" + role + "'");
            }
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new CliException(CliException.USAGE, "--name must be 1-64 of A-Z a-z 0-9 . _ -");
            }
            if (expires != null && expires.isZero()) {
                expires = null; // 0 is "none", as for every duration option
            }
            if (expires != null && expires.isNegative()) {
                throw new CliException(CliException.USAGE, "--expires must not be negative");
            }
            StowageHome home = StowageHome.fromEnvironment();
            TokensFile file = TokensFile.of(home);
            boolean add = upRunning(home, file);
            String token = ServiceTokens.newToken();
            String line = ServiceTokens.line(role, name, token) + (expires == null ? ""
                    : ":" + Instant.now().plus(expires).truncatedTo(ChronoUnit.SECONDS));
            if (add) {
                file.update(lines -> append(lines, line, file));
            }
            print(token, line, add ? file : null);
            return 0;
        }

        private List<String> append(List<String> lines, String line, TokensFile file) {
            boolean taken = lines.stream().map(TokenCommand::nameOf).anyMatch(name::equals);
            if (taken) {
                throw new CliException(CliException.USAGE, "a token named " + name + " is already in " + file.path()
                        + " (revoke it first: stowage token revoke --name " + name + ")");
            }
            List<String> next = new ArrayList<>(lines);
            next.add(line);
            return next;
        }

        private void print(String token, String line, TokensFile added) {
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("token", token);
                out.put("line", line);
                out.put("file", added == null ? null : added.path().toString());
                out.put("added", added != null);
                JsonOut.print(out);
                return;
            }
            System.out.println("token (give it to " + name + "; it is not stored anywhere): " + token);
            if (added != null) {
                System.out.println("added to " + added.path() + "; the services of stowage up accept it within seconds:");
            } else {
                System.out.println("no stowage up is running for this STOWAGE_HOME: add this line to each service's tokens"
                        + " file (stowage.auth.tokens-file, env STOWAGE_AUTH_TOKENS_FILE; re-read within seconds) or to"
                        + " stowage.auth.tokens (env STOWAGE_AUTH_TOKENS, comma-separated; read at start-up):");
            }
            System.out.println(line);
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Remove a token's line from the services' tokens file; they refuse it within seconds.")
    static final class Revoke implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "The token's name, as token list shows it.")
        String name;
        @Option(names = "--dry-run", description = "Say what would be removed; change nothing.")
        boolean dryRun;
        @Option(names = "--json", description = "Print {\"name\",\"roles\",\"file\",\"dryRun\",\"revoked\",\"expiresAt\",\"upRunning\"}"
                + " as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (name.equals("services")) {
                throw new CliException(CliException.USAGE, "the services token is how the services read the ledger; revoking"
                        + " it would stop every release (stop stowage up to retire the session's tokens)");
            }
            TokensFile file = TokensFile.of(StowageHome.fromEnvironment());
            if (!file.exists()) {
                throw new CliException(CliException.FAILED, "no tokens file " + file.path() + " (stowage up writes it)");
            }
            List<TokensFile.Line> named = file.lines().stream().filter(l -> l.name().equals(name)).toList();
            List<String> roles = named.stream().map(TokensFile.Line::role).toList();
            boolean running = upRunning(StowageHome.fromEnvironment(), file);
            if (roles.isEmpty()) {
                throw new CliException(CliException.FAILED, "no token named " + name + " in " + file.path());
            }
            if (!dryRun) {
                file.update(lines -> new ArrayList<>(lines.stream().filter(l -> !name.equals(nameOf(l))).toList()));
            }
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("name", name);
                out.put("roles", roles);
                out.put("file", file.path().toString());
                out.put("dryRun", dryRun);
                out.put("revoked", !dryRun);
                out.put("expiresAt", named.stream().map(TokensFile.Line::expiresAt).filter(java.util.Objects::nonNull)
                        .map(Instant::toString).findFirst().orElse(null));
                out.put("upRunning", running);
                JsonOut.print(out);
            } else {
                String effect = running ? "; the services of stowage up refuse it within seconds (401 unknown-token)"
                        : "; no stowage up is running for this STOWAGE_HOME: services started on this file refuse it"
                        + " from their next start or reload";
                System.out.println((dryRun ? "would revoke " : "revoked ") + name + " (" + String.join(", ", roles) + ") in "
                        + file.path() + (dryRun ? "; nothing changed" : effect));
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The tokens the services accept: name, role, expiry.")
    static final class ListTokens implements Callable<Integer> {
        @Option(names = "--json", description = "Print {\"file\",\"tokens\":[{\"name\",\"role\",\"expiresAt\",\"expired\"}]} as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            TokensFile file = TokensFile.of(StowageHome.fromEnvironment());
            if (!file.exists()) {
                throw new CliException(CliException.FAILED, "no tokens file " + file.path() + " (stowage up writes it)");
            }
            Instant now = Instant.now();
            List<Map<String, Object>> tokens = new ArrayList<>();
            for (TokensFile.Line line : file.lines()) {
                Map<String, Object> token = new LinkedHashMap<>();
                token.put("name", line.name());
                token.put("role", line.role());
                token.put("expiresAt", line.expiresAt() == null ? null : line.expiresAt().toString());
                token.put("expired", line.expiresAt() != null && !now.isBefore(line.expiresAt()));
                tokens.add(token);
            }
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("file", file.path().toString());
                out.put("tokens", tokens);
                JsonOut.print(out);
                return 0;
            }
            System.out.println(file.path() + ": " + tokens.size() + " token(s)");
            for (Map<String, Object> token : tokens) {
                System.out.printf("%-24s %-9s %s%n", token.get("name"), token.get("role"), token.get("expiresAt") == null
                        ? "no expiry" : (Boolean.TRUE.equals(token.get("expired")) ? "expired " : "expires ") + token.get("expiresAt"));
            }
            return 0;
        }
    }

    /** @return the name of a raw file line, null for a comment, a blank or a broken line */
    static String nameOf(String raw) {
        return TokensFile.Line.parse(raw).map(TokensFile.Line::name).orElse(null);
    }
}
