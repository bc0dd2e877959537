package io.stowage.cli.platform;

import io.stowage.auth.TokenEntry;
import io.stowage.auth.TokenTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tokens file {@code stowage up} hands every service: a new session replaces only the previous session's three
 * lines and keeps those of {@code token create}; the file is owner-only and replaced whole (a new file each write);
 * every line it writes is one the services' own parser accepts.
 */
class TokensFileTest {

    @Test
    void aNewSessionReplacesOnlyTheSessionLinesAndTheFileIsOwnerOnly(@TempDir Path dir) throws Exception {
        TokensFile file = new TokensFile(dir.resolve("tokens").resolve(TokensFile.NAME));
        ServiceTokens first = ServiceTokens.generate();
        file.replaceSession(first.lines());
        String ciBot = ServiceTokens.line("reader", "ci-bot", ServiceTokens.newToken()) + ":2027-01-31T00:00:00Z";
        file.update(lines -> {
            List<String> next = new ArrayList<>(lines);
            next.add(ciBot);
            return next;
        });
        Object inode = Files.readAttributes(file.path(), java.nio.file.attribute.BasicFileAttributes.class).fileKey();

        ServiceTokens second = ServiceTokens.generate();
        file.replaceSession(second.lines());

        List<String> lines = Files.readAllLines(file.path());
        assertThat(lines).contains(ciBot).containsAll(second.lines()).doesNotContainAnyElementsOf(first.lines());
        assertThat(lines.get(0)).startsWith("#");
        assertThat(file.lines()).extracting(TokensFile.Line::name)
                .containsExactly("ci-bot", "cli-operator", "cli-reader", "services");
        assertThat(file.lines().get(0).expiresAt()).hasToString("2027-01-31T00:00:00Z");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path()))).isEqualTo("rw-------");
        assertThat(Files.readAttributes(file.path(), java.nio.file.attribute.BasicFileAttributes.class).fileKey())
                .as("replaced by a rename, never written in place").isNotEqualTo(inode);

        TokenTable table = new TokenTable(file.lines().stream().map(l -> TokenEntry.parse(l.text())).toList());
        assertThat(table.find(second.operator())).get().extracting(TokenEntry::name).isEqualTo("cli-operator");
        assertThat(table.find(first.operator())).isEmpty();
        assertThat(Files.readString(file.path())).doesNotContain(second.operator()).doesNotContain(second.services());
    }
}
