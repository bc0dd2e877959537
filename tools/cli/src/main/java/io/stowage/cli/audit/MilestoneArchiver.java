package io.stowage.cli.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import io.stowage.cli.CliException;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.EventPublisher;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.platform.ServiceLauncher;
import io.stowage.events.ArchivePublished;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.ObjectKeys;
import io.stowage.events.Sha256;
import io.stowage.events.ledger.ObjectEvidence;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Closes a milestone: consumes the ledger's archive text of one run or dataset revision
 * ({@code GET /api/archives/export?asset=}), compresses it with zstd (level {@value #LEVEL}, one frame: the same
 * text gives the same bytes), names it by its SHA-256, writes it to {@code <staging>/archives/<asset>/<sha256>.jsonl.zst}
 * and produces an {@code archive.published}; the uploader stores it at {@link ObjectKeys#ledgerArchive} and the
 * verifier verifies it, which {@link #awaitVerified} waits for in the ledger.
 */
public final class MilestoneArchiver {
    /** zstd level of every archive; changing it changes every archive's bytes and key. */
    static final int LEVEL = 19;
    private final URI ledger;
    private final Path stagingDir;
    private final List<String> secrets;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * @param ledger     base URL of the ledger service
     * @param stagingDir where the archive file is written (the uploader reads it from there)
     * @param secrets    values that must never appear in an archive (store keys, database password); blanks ignored
     */
    public MilestoneArchiver(URI ledger, Path stagingDir, List<String> secrets, Clock clock) {
        this.ledger = ledger;
        this.stagingDir = stagingDir;
        this.secrets = secrets.stream().filter(s -> s != null && !s.isBlank()).toList();
        this.clock = clock;
    }

    /**
     * An archive ready to publish.
     *
     * @param text  the uncompressed JSON lines
     * @param bytes the compressed file content
     */
    public record Prepared(String archivedAsset, String text, byte[] bytes, String sha256, String key, long events,
                    long firstSeq, long lastSeq, String lastChainHash) {

        /** @return the event naming {@code file} (which must hold {@link #bytes}) */
        ArchivePublished event(Path file, Clock clock) {
            return ArchivePublished.of(EventMeta.first(AssetIds.archive(archivedAsset), clock), archivedAsset,
                    file.toString(), bytes.length, sha256, events, firstSeq, lastSeq, lastChainHash);
        }
    }

    /**
     * @param archivedAsset {@code run/<experiment>/<run>} or {@code dataset/<name>/<revision>}
     * @throws CliException when the ledger refuses (bad asset: exit 2; an edited row: exit 1), is unreachable, or the
     *                      text holds a signed URL or one of the secrets (exit 1, the secret not named)
     */
    public Prepared prepare(String archivedAsset) {
        String text = export(archivedAsset);
        refuseSecrets(archivedAsset, text, secrets);
        byte[] bytes = compress(text);
        String sha256 = Sha256.of(bytes);
        JsonNode header = header(text);
        return new Prepared(archivedAsset, text, bytes, sha256, ObjectKeys.ledgerArchive(archivedAsset, sha256),
                header.get("events").asLong(), header.get("firstSeq").asLong(), header.get("lastSeq").asLong(),
                header.get("lastChainHash").isNull() ? null : header.get("lastChainHash").asText());
    }

    /** @return the archive file, written under a temporary name, forced to disk and renamed into place */
    public Path write(Prepared archive) throws IOException {
        Path dir = stagingDir.resolve("archives").resolve(archive.archivedAsset());
        Files.createDirectories(dir);
        Path file = dir.resolve(archive.sha256() + ".jsonl.zst");
        Path tmp = dir.resolve(archive.sha256() + ".jsonl.zst.tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(java.nio.ByteBuffer.wrap(archive.bytes()));
            out.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /** Publishes the archive's event (the uploader takes it from there). */
    public ArchivePublished publish(Prepared archive, Path file, EventPublisher publisher) {
        ArchivePublished event = archive.event(file, clock);
        publisher.publish(event);
        return event;
    }

    /**
     * Waits until the ledger holds the archive's primary copy with a HEAD and a full-read result.
     *
     * @return the copy's evidence
     * @throws CliException when a result is not OK, or after {@code timeout}
     */
    public ObjectEvidence awaitVerified(String key, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        HttpJson json = new HttpJson();
        URI uri = ledger.resolve("/api/objects/copies?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
        var type = EventCodec.mapper().getTypeFactory().constructCollectionType(List.class, ObjectEvidence.class);
        while (Instant.now().isBefore(deadline)) {
            Optional<List<ObjectEvidence>> copies = json.get(uri, type);
            for (ObjectEvidence copy : copies.orElse(List.of())) {
                if (!"primary".equals(copy.store()) || copy.headResult() == null || copy.fullReadResult() == null) {
                    continue;
                }
                if (copy.headResult() != io.stowage.events.VerifyResult.OK
                        || copy.fullReadResult() != io.stowage.events.VerifyResult.OK) {
                    throw new CliException(CliException.FAILED, "archive " + key + " failed verification: HEAD "
                            + copy.headResult() + ", full read " + copy.fullReadResult());
                }
                return copy;
            }
            ServiceLauncher.pause(300);
        }
        throw new CliException(CliException.FAILED, "timed out after " + timeout.toSeconds()
                + " s waiting for the ledger to record archive " + key + " uploaded and verified");
    }

    /** @return the zstd frame of {@code text} (UTF-8) at {@link #LEVEL}, with its content size */
    static byte[] compress(String text) {
        return Zstd.compress(text.getBytes(StandardCharsets.UTF_8), LEVEL);
    }

    /**
     * @throws CliException when {@code text} holds a presigned-URL parameter ({@code X-Amz-Signature},
     *                      {@code X-Amz-Credential}, {@code X-Amz-Security-Token}) or one of {@code secrets}
     */
    static void refuseSecrets(String archivedAsset, String text, List<String> secrets) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (String parameter : List.of("x-amz-signature", "x-amz-credential", "x-amz-security-token")) {
            if (lower.contains(parameter)) {
                throw new CliException(CliException.FAILED, "the archive of " + archivedAsset
                        + " holds a signed URL (" + parameter + "); nothing was written");
            }
        }
        for (String secret : secrets) {
            if (secret != null && !secret.isBlank() && text.contains(secret)) {
                throw new CliException(CliException.FAILED, "the archive of " + archivedAsset
                        + " holds a credential of this session; nothing was written");
            }
        }
    }

    private String export(String archivedAsset) {
        URI uri = ledger.resolve("/api/archives/export?asset=" + URLEncoder.encode(archivedAsset, StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5)).GET();
            BearerToken.resolve().ifPresent(token -> request.header("Authorization", "Bearer " + token));
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot reach the ledger at " + ledger + " ("
                    + e.getClass().getSimpleName() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(CliException.FAILED, "interrupted");
        }
        HttpJson.refuseUnauthorised(uri, response);
        if (response.statusCode() != 200) {
            String error = response.body();
            try {
                error = EventCodec.mapper().readTree(error).path("error").asText(error);
            } catch (IOException | RuntimeException notJson) {
                // keep the body as it is
            }
            throw new CliException(response.statusCode() == 400 ? CliException.USAGE : CliException.FAILED,
                    "the ledger refused the archive of " + archivedAsset + ": " + error);
        }
        return response.body();
    }

    private static JsonNode header(String text) {
        int newline = text.indexOf('\n');
        try {
            return EventCodec.mapper().readTree(newline < 0 ? text : text.substring(0, newline));
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "the ledger's archive has no header line: " + e.getMessage(), e);
        }
    }
}
