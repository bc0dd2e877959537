package io.stowage.verifier.app;

import io.stowage.events.ObjectKind;
import io.stowage.events.Sha256;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.MemberManifest;
import io.stowage.shardformat.MemberManifestException;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.ObjectReader;
import io.stowage.store.StoreException;
import io.stowage.verifier.ledgerclient.LedgerScrubQueue;
import io.stowage.verifier.ledgerclient.LedgerUnavailableException;
import io.stowage.verifier.storage.ObjectReaders;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * Reads a stored member manifest ({@code <shard sha256>.members.jsonl}) for a person to look at: only one the ledger
 * records as a member manifest in that store and bucket, at most {@link #MAX_BYTES}, and shown only when the bytes
 * read hash to the ledger's SHA-256 and every line passes {@link MemberManifest}'s rule. A view, not evidence: nothing
 * is sent to the ledger.
 */
@ApplicationScoped
public class MemberListing {
    /** The largest member manifest read for a view: 64 MiB (about 400,000 members). */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    private final LedgerScrubQueue ledger;
    private final ObjectReaders readers;

    MemberListing(LedgerScrubQueue ledger, ObjectReaders readers) {
        this.ledger = ledger;
        this.readers = readers;
    }

    /** Why a manifest is not shown. */
    public enum Refusal { BAD_INPUT, NOT_FOUND, TOO_LARGE, NOT_AS_RECORDED, UNAVAILABLE }

    /**
     * A manifest's first entries, or why not.
     *
     * @param sha256  the manifest's SHA-256, as the ledger records it and as read
     * @param bytes   the manifest's size
     * @param total   how many members it lists
     * @param members the first {@code limit} members, in manifest (tar) order
     */
    public record Listing(String sha256, long bytes, int total, List<MemberEntry> members, Refusal refusal,
                          String reason) {
        static Listing refused(Refusal refusal, String reason) {
            return new Listing(null, 0, 0, List.of(), refusal, reason);
        }
    }

    /**
     * @param store "primary" or "replica"
     * @param key   the member manifest's key
     * @param limit how many members to return at most, 1 or more
     * @return the listing or a refusal with its one-line reason
     */
    public Listing list(String store, String key, int limit) {
        Optional<ObjectReader> reader = readers.forStore(store);
        if (reader.isEmpty()) {
            return Listing.refused(Refusal.BAD_INPUT, "store must be primary or replica, not '" + store + "'");
        }
        String where = store + ":" + key;
        byte[] bytes;
        ObjectEvidence copy;
        try {
            Optional<ObjectEvidence> recorded = ledger.copies(key).stream()
                    .filter(c -> store.equals(c.store()) && reader.get().bucket().equals(c.bucket())
                            && c.kind() == ObjectKind.MEMBERS && c.sha256() != null).findFirst();
            if (recorded.isEmpty()) {
                return Listing.refused(Refusal.NOT_FOUND, "the ledger records no member manifest at " + where);
            }
            copy = recorded.get();
            if (copy.bytes() > MAX_BYTES) {
                return Listing.refused(Refusal.TOO_LARGE, where + " is " + copy.bytes() + " bytes, more than the "
                        + MAX_BYTES + " a view reads");
            }
            try (InputStream in = reader.get().open(key)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
        } catch (LedgerUnavailableException e) {
            return Listing.refused(Refusal.UNAVAILABLE, "the ledger cannot be asked about " + key + ": " + e.getMessage());
        } catch (ObjectNotFoundException e) {
            return Listing.refused(Refusal.NOT_AS_RECORDED, where + " is not in the store now");
        } catch (StoreException | IOException e) {
            return Listing.refused(Refusal.UNAVAILABLE, "the " + store + " store cannot be read at " + key + ": "
                    + e.getMessage());
        }
        String read = Sha256.of(bytes);
        if (!read.equals(copy.sha256())) {
            return Listing.refused(Refusal.NOT_AS_RECORDED, where + " reads as SHA-256 " + read + " (" + bytes.length
                    + " bytes), not the ledger's " + copy.sha256() + "; not shown");
        }
        List<MemberEntry> entries;
        try {
            entries = MemberManifest.read(new ByteArrayInputStream(bytes), key);
        } catch (MemberManifestException e) {
            return Listing.refused(Refusal.NOT_AS_RECORDED, "not a valid member manifest: " + e.getMessage());
        } catch (IOException e) {
            return Listing.refused(Refusal.UNAVAILABLE, "cannot parse " + where + ": " + e.getMessage());
        }
        return new Listing(read, bytes.length, entries.size(), List.copyOf(entries.subList(0, Math.min(limit,
                entries.size()))), null, null);
    }
}
