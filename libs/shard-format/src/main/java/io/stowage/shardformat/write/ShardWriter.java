package io.stowage.shardformat.write;

import com.github.luben.zstd.ZstdOutputStream;
import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.MemberName;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one shard in one pass over its members: consumes a {@link ShardPlan}, produces a
 * deterministic PAX tar compressed with zstd ({@code <sha256>.tar.zst}) and its JSONL member
 * manifest ({@code <sha256>.members.jsonl}). Each member is read once; its SHA-256, the tar, the
 * zstd stream and the shard's own SHA-256 are computed while it streams. Headers are normalised
 * (owner and group 0 with empty names, mode 0644, a fixed mtime), so the same members give the
 * same bytes.
 */
public final class ShardWriter {
    /** zstd level of the shards (the CLI's default). */
    public static final int ZSTD_LEVEL = 3;
    private static final int FILE_MODE = 0100644;
    private static final int COPY_BUFFER = 1 << 20;

    private final FileTime mtime;

    /** @param mtimeEpochSeconds the mtime of every member (from {@code SOURCE_DATE_EPOCH}, else 0), seconds since 1970 */
    public ShardWriter(long mtimeEpochSeconds) {
        this.mtime = FileTime.from(Instant.ofEpochSecond(mtimeEpochSeconds));
    }

    /**
     * @param plan      the members of the shard
     * @param shardsDir existing directory to write into (the staging {@code shards/} directory)
     * @return the shard and member manifest, renamed to their SHA-256 names, fsynced
     * @throws MemberChangedException when a member's size or modification time after reading differs
     *                                 from the scan's (it changed while it was read)
     * @throws DatasetInputException  when a member's name breaks the shard-format {@link MemberName} rule
     * @throws IOException when reading a member or writing fails; either way no temporary file is left
     *                     behind and no shard or member manifest of this plan is written
     */
    public BuiltShard write(ShardPlan plan, Path shardsDir) throws IOException {
        Path tmp = DurableFiles.temporaryName(shardsDir, "shard-" + plan.index() + ".tar.zst");
        try {
            DigestingOutputStream shard = new DigestingOutputStream(
                    new BufferedOutputStream(DurableFiles.create(tmp), COPY_BUFFER));
            PaxHeaderNormaliser normaliser = new PaxHeaderNormaliser(
                    new BufferedOutputStream(new ZstdOutputStream(shard, ZSTD_LEVEL), COPY_BUFFER));
            List<MemberEntry> entries = new ArrayList<>(plan.members().size());
            // one copy buffer per shard: a 1 MiB array is a humongous object for G1 at a small heap, and one per
            // member made the collector run about once per member (a profile: 92 % of the bytes allocated)
            byte[] buffer = new byte[COPY_BUFFER];
            try (TarArchiveOutputStream tar = openTar(normaliser)) {
                for (Member member : plan.members()) {
                    requireLegalName(member);
                    normaliser.nextRecordIsHeader();
                    tar.putArchiveEntry(entryFor(member));
                    entries.add(new MemberEntry(member.path(), member.bytes(), copy(member, tar, buffer)));
                    tar.closeArchiveEntry();
                }
                tar.finish();
            }
            String sha256 = shard.sha256Hex();
            WrittenFile members = DurableFiles.write(shardsDir.resolve(sha256 + ".members.jsonl"), jsonLines(entries));
            Path target = shardsDir.resolve(sha256 + ".tar.zst");
            DurableFiles.publish(tmp, target);
            return new BuiltShard(plan.index(), new WrittenFile(target, shard.bytes(), sha256), members, entries);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The readers refuse any other name; refusing it here means no shard that they would refuse is ever built. */
    private static void requireLegalName(Member member) {
        MemberName.problem(member.path()).ifPresent(problem -> {
            throw new DatasetInputException("member name " + member.path() + " " + problem + " (" + member.file() + ")");
        });
    }

    private static TarArchiveOutputStream openTar(OutputStream out) {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8");
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        tar.setAddPaxHeadersForNonAsciiNames(true);
        return tar;
    }

    private TarArchiveEntry entryFor(Member member) {
        TarArchiveEntry entry = new TarArchiveEntry(member.path(), true);
        entry.setSize(member.bytes());
        entry.setMode(FILE_MODE);
        entry.setIds(0, 0);
        entry.setNames("", "");
        entry.setLastModifiedTime(mtime);
        return entry;
    }

    /**
     * Streams the member into the tar entry once, hashing it; returns its SHA-256. Reads exactly the
     * scanned size, then compares size and mtime with the scan's: a writer that touched the file
     * meanwhile leaves at least one of them different.
     */
    private static String copy(Member member, OutputStream tar, byte[] buffer) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        long remaining = member.bytes();
        try (InputStream in = Files.newInputStream(member.file(), LinkOption.NOFOLLOW_LINKS)) {
            int read;
            while (remaining > 0 && (read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining))) > 0) {
                digest.update(buffer, 0, read);
                tar.write(buffer, 0, read);
                remaining -= read;
            }
            if (remaining != 0 || in.read() != -1) {
                throw new MemberChangedException(member, "its size changed");
            }
        }
        BasicFileAttributes after = Files.readAttributes(member.file(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (after.size() != member.bytes() || !after.lastModifiedTime().equals(member.modified())) {
            throw new MemberChangedException(member, "size " + member.bytes() + " -> " + after.size()
                    + " bytes, modified " + member.modified() + " -> " + after.lastModifiedTime());
        }
        return Sha256.hex(digest);
    }

    private static byte[] jsonLines(List<MemberEntry> entries) throws IOException {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        for (MemberEntry entry : entries) {
            lines.write(EventCodec.mapper().writeValueAsBytes(entry));
            lines.write('\n');
        }
        return lines.toByteArray();
    }
}
