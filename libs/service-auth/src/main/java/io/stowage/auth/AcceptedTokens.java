package io.stowage.auth;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every token a service accepts: the fixed lines of {@code stowage.auth.tokens} plus the current contents of the tokens
 * file ({@link TokenFile}, re-read when it changes), and the rule that decides one presented token: a hash no entry
 * holds is {@code unknown-token} ({@code tokens-file-invalid} while the file is refused), an entry whose expiry has
 * come is {@code expired-token}. The configured lines keep working while the file is refused. Pure Java, thread-safe.
 */
public final class AcceptedTokens {
    private record Built(TokenFile.Contents source, TokenTable table, String problem) {
    }

    private final List<TokenEntry> configured;
    private final TokenFile file;
    private final Clock clock;
    private volatile Built built;

    /**
     * @param configured the {@code stowage.auth.tokens} entries
     * @param file       the tokens file, or null when none is configured
     * @param clock      decides expiry
     * @throws IllegalArgumentException when a configured entry and a file entry have the same hash (at start-up)
     */
    public AcceptedTokens(List<TokenEntry> configured, TokenFile file, Clock clock) {
        this.configured = List.copyOf(configured);
        this.file = file;
        this.clock = clock;
        TokenFile.Contents contents = file == null ? new TokenFile.Contents(List.of(), null) : file.current();
        this.built = new Built(contents, new TokenTable(union(contents)), contents.problem());
    }

    /**
     * @param token the bearer token as presented
     * @return the verdict; the comparison is constant-time per entry ({@link TokenTable#find})
     */
    public TokenVerdict check(String token) {
        Built now = table();
        Optional<TokenEntry> entry = now.table().find(token);
        if (entry.isEmpty()) {
            return new TokenVerdict(null, now.problem() != null ? RefusedRequest.TOKENS_FILE_INVALID : RefusedRequest.UNKNOWN_TOKEN);
        }
        if (entry.get().expiredAt(clock.instant())) {
            return new TokenVerdict(entry.get(), RefusedRequest.EXPIRED_TOKEN);
        }
        return new TokenVerdict(entry.get(), null);
    }

    /** @return every entry accepted now, configured first (for the start-up log line) */
    public List<TokenEntry> entries() {
        return union(table().source());
    }

    private Built table() {
        Built current = built;
        if (file == null) {
            return current;
        }
        TokenFile.Contents contents = file.current();
        if (contents == current.source()) {
            return current;
        }
        Built next;
        try {
            next = new Built(contents, new TokenTable(union(contents)), contents.problem());
        } catch (IllegalArgumentException e) {
            next = new Built(contents, new TokenTable(configured), file.path() + ": " + e.getMessage());
        }
        built = next;
        return next;
    }

    private List<TokenEntry> union(TokenFile.Contents contents) {
        List<TokenEntry> all = new ArrayList<>(configured);
        all.addAll(contents.entries());
        return all;
    }
}
