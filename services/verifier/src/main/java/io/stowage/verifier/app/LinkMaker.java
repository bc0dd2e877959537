package io.stowage.verifier.app;

import io.stowage.store.ObjectHead;
import io.stowage.store.PresignPolicy;
import io.stowage.store.StoreException;
import io.stowage.store.UrlSigner;
import io.stowage.verifier.domain.LinkEvidence;
import io.stowage.verifier.ledgerclient.LedgerScrubQueue;
import io.stowage.verifier.ledgerclient.LedgerUnavailableException;
import io.stowage.verifier.storage.ObjectReaders;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Makes a presigned GET link for one object when every rule allows it: the key is well-formed and under a prefix of
 * {@link PresignPolicy} ({@code models/}, plus {@code stowage.presign.allowed-prefixes}, env
 * {@code STOWAGE_PRESIGN_ALLOWED_PREFIXES}, comma-separated), the lifetime is 1 s to 7 days, and the copy is one the
 * ledger has proven and the store holds now as recorded ({@link LinkEvidence}). Checks run in that order; nothing is
 * signed unless all pass. The URL is returned only, never logged or kept.
 */
@ApplicationScoped
public class LinkMaker {
    private final LedgerScrubQueue ledger;
    private final ObjectReaders readers;
    private final PresignPolicy policy;

    LinkMaker(LedgerScrubQueue ledger, ObjectReaders readers,
              @ConfigProperty(name = "stowage.presign.allowed-prefixes") Optional<String> allowedPrefixes) {
        this.ledger = ledger;
        this.readers = readers;
        this.policy = PresignPolicy.of(allowedPrefixes.orElse(null), List.of());
    }

    /** Why a link was not made: bad input, a key outside the allowed prefixes, an unproven copy, or a service down. */
    public enum Refusal { BAD_INPUT, NOT_ALLOWED, NOT_PROVEN, UNAVAILABLE }

    /**
     * A made link, or why not.
     *
     * @param url       the presigned URL; null when refused
     * @param expiresAt when the URL stops working
     * @param bucket    the bucket of the store the URL reads
     * @param bytes     the object's size as the ledger records it
     * @param sha256    the object's SHA-256 as the ledger records it (what the receiver checks)
     * @param refusal   null when made
     * @param reason    one line, null when made
     */
    public record Link(URI url, Instant expiresAt, String bucket, long bytes, String sha256, Refusal refusal,
                       String reason) {
        static Link refused(Refusal refusal, String reason) {
            return new Link(null, null, null, 0, null, refusal, reason);
        }
    }

    /**
     * @param store    "primary" or "replica"
     * @param key      the object key
     * @param lifetime how long the URL works
     * @param now      the instant the lifetime counts from
     * @return the link, or a refusal with its reason
     */
    public Link make(String store, String key, Duration lifetime, Instant now) {
        Optional<UrlSigner> signer = readers.signer(store);
        if (signer.isEmpty()) {
            return Link.refused(Refusal.BAD_INPUT, "store must be primary or replica, not '" + store + "'");
        }
        try {
            PresignPolicy.lifetime(lifetime, "expiresInSeconds");
        } catch (IllegalArgumentException e) {
            return Link.refused(Refusal.BAD_INPUT, e.getMessage());
        }
        String malformed = PresignPolicy.keyProblem(key);
        if (malformed != null) {
            return Link.refused(Refusal.BAD_INPUT, malformed);
        }
        String refusal = policy.refusal(key);
        if (refusal != null) {
            return Link.refused(Refusal.NOT_ALLOWED, "refused: " + refusal);
        }
        LinkEvidence.Decision decision;
        try {
            Long bytesNow = readers.forStore(store).orElseThrow().head(key).map(ObjectHead::bytes).orElse(null);
            decision = LinkEvidence.decide(store, signer.get().bucket(), key, ledger.copies(key), bytesNow);
        } catch (LedgerUnavailableException e) {
            return Link.refused(Refusal.UNAVAILABLE, "the ledger cannot be asked about " + key + ": " + e.getMessage());
        } catch (StoreException e) {
            return Link.refused(Refusal.UNAVAILABLE, "the " + store + " store cannot be asked about " + key + ": "
                    + e.getMessage());
        }
        if (!decision.allowed()) {
            return Link.refused(Refusal.NOT_PROVEN, decision.refusal());
        }
        return new Link(signer.get().presignGet(key, lifetime), now.plus(lifetime), signer.get().bucket(),
                decision.copy().bytes(), decision.copy().sha256(), null, null);
    }
}
