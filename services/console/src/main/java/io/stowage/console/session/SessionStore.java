package io.stowage.console.session;

import io.stowage.console.ConsoleConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Server-side sessions: a random 256-bit session id (the only thing the cookie holds) maps to the signed-in
 * {@link Viewer}. Sessions live in memory: a restarted console asks everyone to sign in again. A session ends at
 * sign-out or after {@code stowage.console.session-ttl}.
 */
@ApplicationScoped
public class SessionStore {
    private record Entry(Viewer viewer, Instant expires) {
    }

    private final Map<String, Entry> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final ConsoleConfig config;
    private final Clock clock = Clock.systemUTC();

    SessionStore(ConsoleConfig config) {
        this.config = config;
    }

    /** @return a new session id for {@code viewer} (43 URL-safe base64 characters) */
    public String open(Viewer viewer) {
        byte[] id = new byte[32];
        random.nextBytes(id);
        String key = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        sessions.put(key, new Entry(viewer, clock.instant().plus(config.sessionTtl())));
        sessions.entrySet().removeIf(e -> e.getValue().expires().isBefore(clock.instant()));
        return key;
    }

    /** @return the viewer of a live session, or empty for an unknown, ended or expired id */
    public Optional<Viewer> find(String id) {
        if (id == null || id.isBlank()) {
            return Optional.empty();
        }
        Entry entry = sessions.get(id);
        if (entry == null || entry.expires().isBefore(clock.instant())) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(entry.viewer());
    }

    /** Ends the session (sign-out); an unknown id is ignored. */
    public void close(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }
}
