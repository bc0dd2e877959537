package io.stowage.shardformat;

import io.stowage.events.manifest.MemberEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * Reads a shard ({@code <sha256>.tar.zst}: a PAX tar compressed as one or more concatenated zstd frames) in one pass
 * and hands each member to a {@link MemberVisitor}; {@link #verify} checks every member against the shard's member
 * manifest and the shard's own SHA-256 against its content address. The stream must be complete: it must end at the
 * end of a zstd frame, and the tar inside must end with its end-of-archive marker, so a cut shard is
 * {@link ShardStreamException.Kind#TRUNCATED} even when the cut falls on a frame or tar block boundary.
 * Memory: one 1 MiB buffer plus zstd's window, whatever the shard size.
 */
public final class ShardReader {
    private static final int BUFFER = 1 << 20;

    /**
     * Reads every member of the shard in tar order, then the rest of the stream to its end.
     *
     * @param shard   the compressed shard bytes (not closed here), read to their end
     * @param visitor receives each member and its content
     * @return compressed bytes read and their SHA-256 (the shard's content address when the stream is whole)
     * @throws ShardStreamException       when the stream is truncated, not zstd, or not a complete tar
     * @throws UnsafeMemberNameException when a member's name breaks the {@link MemberName} rule; thrown before that
     *                                   member reaches the visitor
     * @throws IOException                when {@code shard} itself fails, or the visitor throws
     */
    public ShardDigest read(InputStream shard, MemberVisitor visitor) throws IOException {
        SourceStream source = new SourceStream(shard);
        try {
            TarEndWatch tail = new TarEndWatch(new BufferedInputStream(new ZstdGuard(source), BUFFER));
            TarArchiveInputStream tar = new TarArchiveInputStream(tail, "UTF-8");
            HeaderNames headerNames = new HeaderNames();
            for (TarArchiveEntry entry = nextEntry(tar, tail); entry != null; entry = nextEntry(tar, tail)) {
                long dataStart = tail.position();
                requireLegalName(entry.getName(), tail.headerRecords(), headerNames);
                tail.nextHeaderAt(roundUpToBlock(dataStart + (entry.isFile() ? entry.getSize() : 0)));
                visitor.member(new TarMember(entry.getName(), entry.getSize(), entry.isFile()), new MemberContent(tar));
            }
            tail.requireEndMarker();
            source.drain();
        } catch (SourceStream.SourceFailure e) {
            throw (IOException) e.getCause();
        }
        return new ShardDigest(source.bytes(), source.sha256Hex());
    }

    /**
     * Reads the shard and checks it. Problems with the shard become {@link ShardProblem}s, never exceptions: a
     * broken stream ends the read with one TRUNCATED / CORRUPT_ZSTD / CORRUPT_TAR problem, a member name that breaks
     * the {@link MemberName} rule with one UNSAFE_MEMBER_NAME problem naming it (the manifest is checked against the
     * same rule), and manifest entries not reached by then are reported MISSING_MEMBER.
     *
     * @param shard          the compressed shard bytes (not closed here)
     * @param manifest       the shard's member manifest entries ({@link MemberManifest#read})
     * @param expectedSha256 the shard's content address (64 hex digits), or null when unknown
     * @return what was read and every problem found
     * @throws IOException when {@code shard} itself fails (disk, network): that says nothing about the shard
     */
    public ShardReport verify(InputStream shard, List<MemberEntry> manifest, String expectedSha256)
            throws IOException {
        ManifestCheck check = new ManifestCheck(manifest);
        if (check.unsafeManifestName()) {
            return check.report(null, null);
        }
        ShardDigest digest;
        try {
            digest = read(shard, check);
        } catch (ShardStreamException e) {
            check.streamBroke(e);
            return check.report(null, null);
        } catch (UnsafeMemberNameException e) {
            check.unsafeName(e);
            return check.report(null, null);
        }
        return check.report(digest, expectedSha256);
    }

    /**
     * The name tar tools use (the first of {@link HeaderNames#names}: a truncated ustar name under a PAX path is only
     * a placeholder) and the name the parser reports must pass {@link MemberName}, and they must be the same name:
     * Commons Compress silently strips a leading '/' from PAX and GNU long names.
     */
    private static void requireLegalName(String parsed, byte[] records, HeaderNames headerNames)
            throws UnsafeMemberNameException {
        if (records == null) {
            throw new UnsafeMemberNameException(parsed, "has header records longer than "
                    + TarEndWatch.HEADER_CAPTURE + " bytes");
        }
        List<String> raw = headerNames.names(records);
        String used = raw.isEmpty() ? null : raw.get(0);
        for (String name : used == null ? List.of(parsed) : List.of(used, parsed)) {
            Optional<String> problem = MemberName.problem(name);
            if (problem.isPresent()) {
                throw new UnsafeMemberNameException(name, problem.get());
            }
        }
        if (!parsed.equals(used)) {
            throw new UnsafeMemberNameException(parsed, "is not the name its header records give ("
                    + (used == null ? "none" : UnsafeMemberNameException.printable(used)) + ")");
        }
    }

    private static TarArchiveEntry nextEntry(TarArchiveInputStream tar, TarEndWatch tail) throws IOException {
        try {
            return tar.getNextEntry();
        } catch (ShardStreamException | SourceStream.SourceFailure e) {
            throw e;
        } catch (EOFException e) {
            throw new ShardStreamException(ShardStreamException.Kind.TRUNCATED,
                    "tar cut at decompressed offset " + tail.position(), e);
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("Truncated")) {
                throw new ShardStreamException(ShardStreamException.Kind.TRUNCATED,
                        "tar cut at decompressed offset " + tail.position() + ": " + e.getMessage(), e);
            }
            throw new ShardStreamException(ShardStreamException.Kind.CORRUPT_TAR,
                    "bad tar header near decompressed offset " + tail.position() + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new ShardStreamException(ShardStreamException.Kind.CORRUPT_TAR,
                    "bad tar header near decompressed offset " + tail.position() + ": " + e.getMessage(), e);
        }
    }

    private static long roundUpToBlock(long offset) {
        return (offset + TarEndWatch.BLOCK - 1) / TarEndWatch.BLOCK * TarEndWatch.BLOCK;
    }

    /**
     * The compressed size and SHA-256 of a shard read in full.
     *
     * @param bytes  compressed bytes
     * @param sha256 their SHA-256, 64 lower-case hex digits
     */
    public record ShardDigest(long bytes, String sha256) {
    }
}
