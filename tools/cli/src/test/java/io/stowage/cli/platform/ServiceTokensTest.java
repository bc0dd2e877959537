package io.stowage.cli.platform;

import io.stowage.auth.TokenEntry;
import io.stowage.auth.TokenTable;
import io.stowage.cli.CliException;
import io.stowage.cli.StowageCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session tokens {@code stowage up} makes: the services' configuration holds the hashes the services
 * accept (checked with the services' own {@link TokenTable}), never the tokens; the CLI's files are owner-only.
 */
class ServiceTokensTest {

    @Test
    void theHashLinesAreAcceptedByTheServicesTableAndHoldNoToken(@TempDir Path dir) throws Exception {
        ServiceTokens tokens = ServiceTokens.generate();
        String config = tokens.hashLines();

        TokenTable table = new TokenTable(Arrays.stream(config.split(",")).map(TokenEntry::parse).toList());
        assertThat(table.find(tokens.operator())).get().extracting(TokenEntry::role, TokenEntry::name)
                .containsExactly("operator", "cli-operator");
        assertThat(table.find(tokens.reader())).get().extracting(TokenEntry::role, TokenEntry::name)
                .containsExactly("reader", "cli-reader");
        assertThat(table.find(tokens.services())).get().extracting(TokenEntry::role).isEqualTo("reader");
        assertThat(config).doesNotContain(tokens.operator()).doesNotContain(tokens.reader()).doesNotContain(tokens.services());
        assertThat(tokens.toString()).doesNotContain(tokens.operator());

        tokens.write(dir);
        assertThat(Files.readString(dir.resolve("operator.token")).strip()).isEqualTo(tokens.operator());
        assertThat(Files.readString(dir.resolve("reader.token")).strip()).isEqualTo(tokens.reader());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("operator.token"))))
                .isEqualTo("rw-------");
    }

    @Test
    void tokenCreatePrintsATokenAndTheLineOfItsHash() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = StowageCli.execute("token", "create", "--role", "reader", "--name", "ci-bot", "--json");
        } finally {
            System.setOut(saved);
        }
        assertThat(code).isZero();
        var json = io.stowage.events.EventCodec.mapper().readTree(out.toByteArray());
        String token = json.get("token").asText();
        TokenEntry entry = TokenEntry.parse(json.get("line").asText());
        assertThat(entry.role()).isEqualTo("reader");
        assertThat(entry.name()).isEqualTo("ci-bot");
        assertThat(new TokenTable(java.util.List.of(entry)).find(token)).contains(entry);
        assertThat(json.get("line").asText()).doesNotContain(token);

        assertThat(StowageCli.execute("token", "create", "--role", "admin", "--name", "x")).isEqualTo(CliException.USAGE);
    }
}
