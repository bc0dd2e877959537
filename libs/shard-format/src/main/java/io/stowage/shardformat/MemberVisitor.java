package io.stowage.shardformat;

import java.io.IOException;
import java.io.InputStream;

/** Receives each member of a shard, in tar order, from {@link ShardReader#read}. */
@FunctionalInterface
public interface MemberVisitor {
    /**
     * @param member  name, size and type of the member
     * @param content the member's bytes, exactly {@code member.bytes()} of them; valid only during this call, and
     *                not to be closed. Bytes left unread are skipped by the reader.
     * @throws IOException to stop reading; a {@link ShardStreamException} from {@code content} means the stream broke
     */
    void member(TarMember member, InputStream content) throws IOException;
}
