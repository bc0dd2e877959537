package io.stowage.shardformat;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a shard's member manifest: the JSONL file the shard builder writes beside each shard
 * ({@code <shard sha256>.members.jsonl}, object key {@code ObjectKeys.members(...)}), one
 * {@code {"path":…,"bytes":…,"sha256":…}} object per line, in tar member order, UTF-8, each line ending in '\n'.
 * Produces the entries as {@link MemberEntry} records, checked line by line.
 */
public final class MemberManifest {

    private MemberManifest() {
    }

    /**
     * @param file a {@code *.members.jsonl} file
     * @return its entries in file order
     * @throws MemberManifestException when a line is not a valid entry (the message names file and line)
     * @throws IOException             when the file cannot be read
     */
    public static List<MemberEntry> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        }
    }

    /**
     * @param in     the manifest's bytes (not closed here)
     * @param source what the bytes are (file name or object key), for error messages
     * @return the entries in stream order; empty for an empty stream
     * @throws MemberManifestException when the bytes are not UTF-8, or a line is not JSON with a non-empty
     *                                 {@code path} that passes {@link MemberName}, {@code bytes} &ge; 0 and a 64-digit lower-case hex {@code sha256},
     *                                 or a path appears twice
     * @throws IOException             when reading fails
     */
    public static List<MemberEntry> read(InputStream in, String source) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
        List<MemberEntry> entries = new ArrayList<>();
        Set<String> paths = new HashSet<>();
        int number = 0;
        try {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                number++;
                MemberEntry entry = parse(line, source, number);
                if (!paths.add(entry.path())) {
                    throw new MemberManifestException(source, number, "path " + entry.path() + " appears twice");
                }
                entries.add(entry);
            }
        } catch (CharacterCodingException e) {
            throw new MemberManifestException(source, number + 1, "not UTF-8");
        }
        return List.copyOf(entries);
    }

    private static MemberEntry parse(String line, String source, int number) throws MemberManifestException {
        MemberEntry entry;
        try {
            entry = EventCodec.mapper().readValue(line, MemberEntry.class);
        } catch (JsonProcessingException e) {
            throw new MemberManifestException(source, number, "not a member entry: " + e.getOriginalMessage());
        }
        if (entry == null || entry.path() == null || entry.path().isEmpty()) {
            throw new MemberManifestException(source, number, "no path");
        }
        Optional<String> unsafe = MemberName.problem(entry.path());
        if (unsafe.isPresent()) {
            throw new MemberManifestException(source, number, "path " + UnsafeMemberNameException.printable(entry.path())
                    + " " + unsafe.get());
        }
        if (entry.bytes() < 0) {
            throw new MemberManifestException(source, number, "negative bytes " + entry.bytes());
        }
        if (!Sha256.isHex(entry.sha256())) {
            throw new MemberManifestException(source, number, "sha256 is not 64 lower-case hex digits");
        }
        return entry;
    }
}
