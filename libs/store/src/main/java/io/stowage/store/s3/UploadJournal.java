package io.stowage.store.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The durable record of one multipart upload, kept so that an uploader killed at any moment can
 * continue the same upload: an append-only text file whose first line names the upload (upload id,
 * part size, object size and SHA-256, creation time) and each further line one part the store
 * confirmed (number, bytes, SHA-256 of the bytes sent, ETag). Every line is forced to disk before
 * the next part is counted as done; a torn last line (a crash mid-write) is ignored when read.
 * Not thread-safe: {@link #recordPart} is called under the caller's lock.
 */
final class UploadJournal {
    private final Path file;

    UploadJournal(Path file) {
        this.file = file;
    }

    /** @return the journal file */
    Path file() {
        return file;
    }

    /**
     * @return what the journal holds, or empty when there is none or its first line is torn
     * @throws UncheckedIOException when it exists but cannot be read
     */
    Optional<JournaledUpload> read() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        List<String> lines;
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            lines = new ArrayList<>(text.lines().toList());
            if (!text.endsWith("\n") && !lines.isEmpty()) {
                lines.remove(lines.size() - 1); // torn by a crash mid-append
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read upload journal " + file + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        String[] head = lines.get(0).split("\t");
        if (head.length != 7 || !head[0].equals("upload")) {
            return Optional.empty();
        }
        List<JournaledUpload.Part> parts = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            if (f.length == 5 && f[0].equals("part")) {
                parts.add(new JournaledUpload.Part(Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3], decode(f[4])));
            }
        }
        return Optional.of(new JournaledUpload(decode(head[1]), decode(head[2]), Integer.parseInt(head[3]),
                Long.parseLong(head[4]), head[5], Long.parseLong(head[6]), parts));
    }

    /** Starts a new journal (replacing any old one) for a just-created upload. */
    void start(JournaledUpload upload) {
        String line = String.join("\t", "upload", encode(upload.key()), encode(upload.uploadId()),
                Integer.toString(upload.partSize()), Long.toString(upload.bytes()), upload.sha256(),
                Long.toString(upload.createdEpochMillis())) + "\n";
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                writeFully(channel, line);
                channel.force(true);
            }
            forceDirectory(file.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write upload journal " + file + ": " + e.getMessage(), e);
        }
    }

    /** Appends one confirmed part and forces it to disk before returning. */
    void recordPart(JournaledUpload.Part part) {
        String line = String.join("\t", "part", Integer.toString(part.number()), Long.toString(part.bytes()),
                part.sha256(), encode(part.etag())) + "\n";
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            writeFully(channel, line);
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to upload journal " + file + ": " + e.getMessage(), e);
        }
    }

    /** Removes the journal (the upload was completed or abandoned). */
    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete upload journal " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeFully(FileChannel channel, String line) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some file systems cannot fsync a directory; the file itself was forced
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
