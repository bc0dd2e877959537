package io.stowage.shardformat.write;

import java.io.IOException;

/** A dataset file changed between the scan and the end of its read into a shard; the build of that shard fails. */
public class MemberChangedException extends IOException {
    /**
     * @param member the member as scanned
     * @param change what differs, one line
     */
    public MemberChangedException(Member member, String change) {
        super("dataset file changed while it was read into a shard, rebuild when it is stable: "
                + member.file() + " (" + change + ")");
    }
}
