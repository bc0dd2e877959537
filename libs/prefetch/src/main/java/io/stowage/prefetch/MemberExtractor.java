package io.stowage.prefetch;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.MemberName;
import io.stowage.shardformat.ShardReader;
import io.stowage.shardformat.TarMember;
import io.stowage.shardformat.UnsafeMemberNameException;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Unpacks one {@code tar.zst} shard into a directory, checking each member against the shard's member manifest:
 * path, size in bytes and SHA-256. The shard is read by the {@code shard-format} module's {@link ShardReader} (one
 * or more zstd frames; a stream cut anywhere, even on a frame or tar block boundary, is an error). Each member is
 * written under a temporary name, fsynced and renamed.
 */
public final class MemberExtractor {
    private static final int BUFFER = 1 << 20;

    private MemberExtractor() {
    }

    /**
     * @param shard   a verified shard file
     * @param members its member manifest
     * @param to      the directory members are written into, as {@code to/<member path>} (created when missing)
     * @return members written
     * @throws MemberMismatchException when a member is not in the manifest, is there twice, differs in size or
     *                                 SHA-256, when a name in the shard or the manifest breaks the shard-format
     *                                 {@link MemberName} rule (absolute, {@code ..}, {@code .} or empty segment,
     *                                 backslash, NUL: refused before anything is written under it), when a
     *                                 manifest member is missing,
     *                                 or when the zstd stream is truncated; members already renamed stay
     */
    public static long extract(Path shard, List<MemberEntry> members, Path to) throws IOException {
        Map<String, MemberEntry> expected = new HashMap<>();
        for (MemberEntry m : members) {
            Optional<String> unsafe = MemberName.problem(m.path());
            if (unsafe.isPresent()) {
                throw new MemberMismatchException(shard.getFileName() + ": member manifest path " + m.path() + " "
                        + unsafe.get() + "; nothing was written");
            }
            expected.put(m.path(), m);
        }
        Set<String> seen = new HashSet<>();
        Path root = to.toAbsolutePath().normalize();
        Path temp = root.resolve(".stowage-extract");
        Files.createDirectories(temp);
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(shard), BUFFER)) {
            new ShardReader().read(raw, (TarMember entry, InputStream content) -> {
                String name = entry.name();
                MemberEntry member = expected.get(name);
                if (member == null || !entry.regularFile()) {
                    throw new MemberMismatchException(shard.getFileName() + ": member " + name
                            + " is not a regular file of its member manifest");
                }
                if (!seen.add(name)) {
                    throw new MemberMismatchException(shard.getFileName() + ": member " + name + " appears twice");
                }
                Path target = root.resolve(name).normalize();
                if (!target.startsWith(root) || target.equals(root) || Path.of(name).isAbsolute()) {
                    throw new MemberMismatchException(shard.getFileName() + ": member path " + name + " leaves " + root);
                }
                write(content, member, temp.resolve(seen.size() + ".part"), target, shard);
            });
        } catch (UnsafeMemberNameException e) {
            throw new MemberMismatchException(shard.getFileName() + ": " + e.getMessage()
                    + "; nothing was written under it", e);
        } catch (IOException e) {
            if (e instanceof MemberMismatchException) {
                throw e;
            }
            throw new MemberMismatchException(shard.getFileName() + ": unreadable or truncated: " + e.getMessage(), e);
        } finally {
            deleteTree(temp);
        }
        for (MemberEntry member : members) {
            if (!seen.contains(member.path())) {
                throw new MemberMismatchException(shard.getFileName() + ": member " + member.path()
                        + " of the member manifest is not in the shard");
            }
        }
        return seen.size();
    }

    private static void write(InputStream tar, MemberEntry member, Path temp, Path target, Path shard)
            throws IOException {
        MessageDigest digest = Sha256.newDigest();
        long bytes = 0;
        byte[] buffer = new byte[BUFFER];
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int n = tar.read(buffer); n >= 0; n = tar.read(buffer)) {
                digest.update(buffer, 0, n);
                bytes += n;
                ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
                while (chunk.hasRemaining()) {
                    out.write(chunk);
                }
            }
            out.force(true);
        }
        String sha = Sha256.hex(digest);
        if (bytes != member.bytes() || !sha.equals(member.sha256())) {
            Files.delete(temp);
            throw new MemberMismatchException(shard.getFileName() + ": member " + member.path() + " has " + bytes
                    + " bytes, SHA-256 " + sha + "; the member manifest names " + member.bytes() + " bytes, "
                    + member.sha256());
        }
        Files.createDirectories(target.getParent());
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
