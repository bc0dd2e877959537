package io.stowage.cli.dataset;

import io.stowage.events.manifest.MemberEntry;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * One shard for {@code stowage dataset verify}: where its bytes and its member manifest come from (a local file or
 * an object in the store), and what its content address and size should be.
 *
 * @param name           what the output calls it: the file path, or the object key
 * @param expectedSha256 the shard's content address (from its file name or the dataset manifest), null when unknown
 * @param expectedBytes  the shard's size in bytes from the dataset manifest, null when unknown
 * @param shard          opens the compressed shard bytes (the caller closes them)
 * @param members        reads the member manifest's entries
 */
public record ShardToCheck(String name, String expectedSha256, Long expectedBytes, Opener shard, MembersLoader members) {

    /** Opens a shard's bytes; {@link java.nio.file.NoSuchFileException} or the store's not-found when there is none. */
    @FunctionalInterface
    interface Opener {
        InputStream open() throws IOException;
    }

    /** Reads a member manifest; {@link io.stowage.shardformat.MemberManifestException} when it is not valid. */
    @FunctionalInterface
    interface MembersLoader {
        List<MemberEntry> load() throws IOException;
    }
}
