package io.stowage.console.session;

import io.stowage.console.ConsoleConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class SessionStoreTest {
    private static ConsoleConfig ttl(Duration ttl) {
        return new ConsoleConfig() {
            public String ledgerUrl() { return "http://ledger"; }
            public java.util.List<String> gatekeeperUrl() { return java.util.List.of("http://gatekeeper"); }
            public java.util.List<String> providerAdapterUrl() { return java.util.List.of("http://provider-adapter"); }
            public java.util.List<String> verifierUrl() { return java.util.List.of("http://verifier"); }
            public Duration sessionTtl() { return ttl; }
            public Duration releaseWait() { return Duration.ofSeconds(1); }
            public boolean secureCookie() { return false; }
        };
    }

    @Test
    void aSessionIdIsRandomAndFindsItsViewerUntilSignOut() {
        SessionStore store = new SessionStore(ttl(Duration.ofHours(1)));
        Viewer viewer = new Viewer("otto", "operator", "token-1");

        String a = store.open(viewer);
        String b = store.open(viewer);

        assertThat(a).hasSize(43).isNotEqualTo(b).doesNotContain("token-1");
        assertThat(store.find(a)).contains(viewer);
        store.close(a);
        assertThat(store.find(a)).isEmpty();
        assertThat(store.find(b)).contains(viewer);
        assertThat(store.find("made-up")).isEmpty();
        assertThat(store.find(null)).isEmpty();
    }

    @Test
    void anExpiredSessionFindsNoOne() {
        SessionStore store = new SessionStore(ttl(Duration.ofMillis(-1)));

        assertThat(store.find(store.open(new Viewer("rita", "reader", "t")))).isEmpty();
    }
}
