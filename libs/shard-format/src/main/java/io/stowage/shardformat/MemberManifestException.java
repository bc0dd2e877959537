package io.stowage.shardformat;

import java.io.IOException;

/** A member manifest that cannot be used: names the manifest (file or key) and the 1-based line. */
public final class MemberManifestException extends IOException {
    private final String source;
    private final int line;

    /**
     * @param source the manifest's file name or object key
     * @param line   1-based line number of the bad entry
     * @param reason what is wrong with it
     */
    public MemberManifestException(String source, int line, String reason) {
        super(source + " line " + line + ": " + reason);
        this.source = source;
        this.line = line;
    }

    /** @return the manifest's file name or object key */
    public String source() {
        return source;
    }

    /** @return 1-based line number of the bad entry */
    public int line() {
        return line;
    }
}
