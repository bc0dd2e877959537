package io.stowage.cli.platform;

import io.stowage.cli.client.BearerToken;

import io.stowage.events.Sha256;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * The bearer tokens of one {@code stowage up}/{@code demo} session: a new random operator token, reader
 * token and services token (a reader the gatekeeper and verifier present to the ledger). The services are given only
 * the hash lines ({@link #lines()}, in the tokens file {@link TokensFile}); the operator and reader tokens are written to
 * {@code <dir>/operator.token} and {@code <dir>/reader.token} (mode 600) for the CLI.
 *
 * @param operator the operator token (43 URL-safe base64 characters, 256 random bits)
 * @param reader   the reader token
 * @param services the services' reader token
 */
public record ServiceTokens(String operator, String reader, String services) {

    /** @return three fresh tokens */
    static ServiceTokens generate() {
        return new ServiceTokens(newToken(), newToken(), newToken());
    }

    /** @return {@code stowage.auth.tokens} for every service: {@code operator:cli-operator:<hex>,reader:cli-reader:<hex>,reader:services:<hex>} */
    String hashLines() {
        return String.join(",", lines());
    }

    /** @return the three hash lines, as the tokens file holds them ({@link TokensFile#SESSION_NAMES}) */
    List<String> lines() {
        return List.of(line("operator", "cli-operator", operator), line("reader", "cli-reader", reader),
                line("reader", "services", services));
    }

    /**
     * Writes the operator and reader tokens under {@code dir}, readable by the owner only.
     *
     * @throws IOException when the directory or a file cannot be written
     */
    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        writeSecret(dir.resolve(BearerToken.OPERATOR_FILE), operator);
        writeSecret(dir.resolve(BearerToken.READER_FILE), reader);
    }

    /** @return a token line for {@code stowage.auth.tokens}: {@code <role>:<name>:<sha256-hex of the token's UTF-8 bytes>} */
    public static String line(String role, String name, String token) {
        return role + ":" + name + ":" + Sha256.of(token.getBytes(StandardCharsets.UTF_8));
    }

    /** @return 32 bytes from {@link SecureRandom}, URL-safe base64 without padding (the services' {@code TokenTable.newToken} shape) */
    public static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void writeSecret(Path file, String token) throws IOException {
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "ServiceTokens[hidden]";
    }
}
