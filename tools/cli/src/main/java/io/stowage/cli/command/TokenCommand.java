package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.platform.ServiceTokens;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage token create --role reader|operator --name NAME [--json]}: prints a new random bearer token and the
 * line to add to the services' {@code stowage.auth.tokens} (or tokens file), which holds only its SHA-256. Contacts
 * nothing and stores nothing: the token is shown once, on standard output.
 */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Bearer tokens for the services' HTTP APIs.",
        subcommands = TokenCommand.Create.class)
public final class TokenCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Print a new token and its hash line for stowage.auth.tokens (nothing is stored).")
    static final class Create implements Callable<Integer> {
        @Option(names = "--role", required = true, description = "reader (GETs only) or operator (also releases, volume and pod actions).")
        String role;
        @Option(names = "--name", required = true, description = "Who holds it (1-64 of A-Z a-z 0-9 . _ -); recorded in events, e.g. release.refused.")
        String name;
        @Option(names = "--json", description = "Print {\"token\",\"line\"} as one line of JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (!role.equals("reader") && !role.equals("operator")) {
                throw new CliException(CliException.USAGE, "--role must be reader or operator, not '" + role + "'");
            }
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new CliException(CliException.USAGE, "--name must be 1-64 of A-Z a-z 0-9 . _ -");
            }
            String token = ServiceTokens.newToken();
            String line = ServiceTokens.line(role, name, token);
            if (json) {
                Map<String, String> out = new LinkedHashMap<>();
                out.put("token", token);
                out.put("line", line);
                JsonOut.print(out);
            } else {
                System.out.println("token (give it to " + name + "; it is not stored anywhere): " + token);
                System.out.println("add to stowage.auth.tokens (env STOWAGE_AUTH_TOKENS, comma-separated) or the tokens file:");
                System.out.println(line);
            }
            return 0;
        }
    }
}
