package io.stowage.shardformat.write;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: reads a shard with tools that share no code with ours — the {@code zstd} program piped
 * into GNU {@code tar} and into Python's {@code tarfile} — and reports what each saw. Names are kept
 * as raw bytes (hex) so that no charset of this JVM or of the tools can hide a difference.
 */
final class ExternalTar {
    /** What a tool saw of one member: the name's bytes in hex, the size in bytes and the content's SHA-256. */
    record Seen(String nameHex, long bytes, String sha256) {
        static Seen of(String name, long bytes, String sha256) {
            return new Seen(HexFormat.of().formatHex(name.getBytes(StandardCharsets.UTF_8)), bytes, sha256);
        }
    }

    /** One line of {@code tar -tv --full-time --numeric-owner}: mode string, owner, size in bytes, mtime (UTC) and the name's bytes in hex. */
    record Listed(String mode, String owner, long bytes, String mtime, String nameHex) {
    }

    /** Per member, GNU tar's {@code TAR_FILETYPE}, {@code TAR_SIZE} and name, and {@code sha256sum} of the extracted bytes. */
    private static final String TO_COMMAND =
            "h=$(sha256sum) && printf '%s %s %s %s\\0' \"$TAR_FILETYPE\" \"${h%% *}\" \"$TAR_SIZE\" \"$TAR_FILENAME\"";
    private static final String PYTHON = String.join("\n",
            "import hashlib, sys, tarfile",
            "out = sys.stdout.buffer",
            "with tarfile.open(fileobj=sys.stdin.buffer, mode='r|', encoding='utf-8', errors='strict') as tar:",
            "    for m in tar:",
            "        h = hashlib.sha256()",
            "        f = tar.extractfile(m)",
            "        while f is not None:",
            "            b = f.read(1 << 20)",
            "            if not b:",
            "                break",
            "            h.update(b)",
            "        out.write(('%s %o %d %d %r %r %d %d %s %s\\n' % (m.type.decode(), m.mode, m.uid, m.gid, m.uname, m.gname,",
            "                   m.mtime, m.size, h.hexdigest(), m.name.encode('utf-8', 'surrogateescape').hex())).encode())");
    private static final Pattern LISTING = Pattern.compile("^(\\S+) (\\S+) +(\\d+) (\\S+ \\S+) (.*)$");

    private ExternalTar() {
    }

    /** @return the path of an executable on PATH (or, for python3, the pyenv shim of this machine) */
    static Optional<String> program(String name) {
        Optional<String> found = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(dir -> Path.of(dir.isEmpty() ? "." : dir, name))
                .filter(Files::isExecutable).map(Path::toString).findFirst();
        if (found.isEmpty() && name.equals("python3") && Files.isExecutable(Path.of("/root/.pyenv/shims/python3"))) {
            return Optional.of("/root/.pyenv/shims/python3");
        }
        return found;
    }

    /**
     * @return every member as GNU tar extracts it (to a command, not to disk): name, {@code TAR_SIZE}, SHA-256;
     *         fails when a member is not a regular file
     */
    static List<Seen> gnuTar(Path shard) throws IOException, InterruptedException {
        byte[] out = pipe(shard, List.of("tar", "-x", "-f", "-", "--to-command=" + TO_COMMAND));
        List<Seen> seen = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                seen.add(parseToCommand(Arrays.copyOfRange(out, start, i)));
                start = i + 1;
            }
        }
        if (start != out.length) {
            throw new AssertionError("tar --to-command output ends without NUL: " + new String(out, StandardCharsets.UTF_8));
        }
        return seen;
    }

    private static Seen parseToCommand(byte[] record) {
        // "f <64 hex> <size> <name bytes>"
        String head = new String(record, 0, Math.min(record.length, 100), StandardCharsets.US_ASCII);
        if (!head.startsWith("f ")) {
            throw new AssertionError("GNU tar saw a member that is not a regular file: " + head);
        }
        String sha = head.substring(2, 66);
        int sizeEnd = head.indexOf(' ', 67);
        long size = Long.parseLong(head.substring(67, sizeEnd));
        byte[] name = Arrays.copyOfRange(record, sizeEnd + 1, record.length);
        return new Seen(HexFormat.of().formatHex(name), size, sha);
    }

    /** @return GNU tar's verbose listing ({@code -tv --full-time --numeric-owner --quoting-style=literal}, TZ=UTC), one entry per line */
    static List<Listed> gnuTarListing(Path shard) throws IOException, InterruptedException {
        byte[] out = pipe(shard, List.of("tar", "-t", "-v", "--full-time", "--numeric-owner",
                "--quoting-style=literal", "-f", "-"));
        List<Listed> listed = new ArrayList<>();
        for (String line : lines(out)) {
            Matcher m = LISTING.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("unexpected tar listing line: " + line);
            }
            listed.add(new Listed(m.group(1), m.group(2), Long.parseLong(m.group(3)), m.group(4),
                    HexFormat.of().formatHex(m.group(5).getBytes(StandardCharsets.ISO_8859_1))));
        }
        return listed;
    }

    /**
     * @return what Python's {@code tarfile} (streaming mode) reads: per member the line
     *         {@code <type> <octal mode> <uid> <gid> <uname repr> <gname repr> <mtime> <size> <sha256> <name hex>}
     */
    static List<String> pythonLines(Path shard) throws IOException, InterruptedException {
        String python = program("python3").orElseThrow();
        return lines(pipe(shard, List.of(python, "-c", PYTHON)));
    }

    /** @return the members as Python's {@code tarfile} reads them: name, size, SHA-256 (from {@link #pythonLines}) */
    static List<Seen> python(List<String> pythonLines) {
        return pythonLines.stream().map(line -> line.split(" "))
                .map(f -> new Seen(f[9], Long.parseLong(f[7]), f[8])).toList();
    }

    /** Lines of raw output, each byte kept as one char (ISO-8859-1), so names stay exact bytes. */
    private static List<String> lines(byte[] out) {
        String text = new String(out, StandardCharsets.ISO_8859_1);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }

    /** Runs {@code zstd -dc shard | command} and returns the command's standard output; fails on a non-zero exit. */
    private static byte[] pipe(Path shard, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder zstd = new ProcessBuilder("zstd", "-dc", "--", shard.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        ProcessBuilder reader = new ProcessBuilder(command);
        reader.environment().put("TZ", "UTC");
        reader.environment().put("LC_ALL", "C");
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(zstd, reader));
        Process last = pipeline.get(1);
        CompletableFuture<byte[]> errors = drain(last.getErrorStream());
        byte[] out = last.getInputStream().readAllBytes();
        for (Process process : pipeline) {
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                pipeline.forEach(Process::destroyForcibly);
                throw new AssertionError("timed out: " + command);
            }
        }
        String stderr = new String(errors.join(), StandardCharsets.UTF_8);
        if (pipeline.get(0).exitValue() != 0 || last.exitValue() != 0) {
            throw new AssertionError("zstd exit " + pipeline.get(0).exitValue() + ", " + command.get(0) + " exit "
                    + last.exitValue() + ": " + stderr);
        }
        return out;
    }

    private static CompletableFuture<byte[]> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }
}
