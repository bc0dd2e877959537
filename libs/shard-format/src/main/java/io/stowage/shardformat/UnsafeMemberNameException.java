package io.stowage.shardformat;

import java.io.IOException;

/**
 * A shard holds a member whose name breaks the {@link MemberName} rule (absolute, a {@code .} / {@code ..} or empty
 * segment, a backslash, a NUL) or whose raw header name differs from the name the tar parser reports: thrown by
 * {@link ShardReader#read} before the member's content is handed to anyone, so nothing is ever written under it.
 */
public final class UnsafeMemberNameException extends IOException {
    private final String member;
    private final String reason;

    /**
     * @param member the member name as the shard's header records give it
     * @param reason why it is refused, in a few words
     */
    public UnsafeMemberNameException(String member, String reason) {
        super("member name " + printable(member) + " " + reason);
        this.member = member;
        this.reason = reason;
    }

    /** @return the refused name, as the header records give it */
    public String member() {
        return member;
    }

    /** @return why it is refused */
    public String reason() {
        return reason;
    }

    /** @return {@code name} quoted, with NUL and other control characters shown as {@code \\uXXXX} */
    static String printable(String name) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : String.valueOf(name).toCharArray()) {
            out.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return out.append('"').toString();
    }
}
