package io.stowage.cli.dataset;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ShardEntry;
import io.stowage.shardformat.MemberManifest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Turns one {@link ShardEntry} of a dataset manifest into a {@link ShardToCheck}, wherever the bytes come from (the
 * store or the local staging layout): the shard must have the entry's SHA-256 and size, and its member manifest the
 * entry's member-manifest SHA-256 before any member is compared with it.
 */
final class ManifestShards {
    private ManifestShards() {
    }

    /**
     * @param entry       the shard's line in the dataset manifest
     * @param name        what the output calls the shard (object key or file path)
     * @param shard       opens the shard's bytes
     * @param members     opens the member manifest's bytes
     * @param membersName the member manifest's key or path, for messages
     */
    static ShardToCheck of(ShardEntry entry, String name, ShardToCheck.Opener shard, ShardToCheck.Opener members,
                           String membersName) {
        return new ShardToCheck(name, entry.sha256(), entry.bytes(), shard, () -> members(entry, members, membersName));
    }

    private static List<MemberEntry> members(ShardEntry entry, ShardToCheck.Opener opener, String membersName)
            throws IOException {
        byte[] bytes;
        try (InputStream in = opener.open()) {
            bytes = in.readAllBytes();
        }
        String sha256 = Sha256.of(bytes);
        if (!sha256.equals(entry.membersSha256())) {
            throw new MembersDigestMismatch(membersName + " has sha256 " + sha256 + " (" + bytes.length
                    + " bytes), the dataset manifest says " + entry.membersSha256() + " (" + entry.membersBytes() + " bytes)");
        }
        return MemberManifest.read(new ByteArrayInputStream(bytes), membersName);
    }

    /** A member manifest whose bytes are not the ones the dataset manifest records. */
    static final class MembersDigestMismatch extends IOException {
        MembersDigestMismatch(String message) {
            super(message);
        }
    }
}
