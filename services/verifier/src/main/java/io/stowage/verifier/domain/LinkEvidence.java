package io.stowage.verifier.domain;

import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;

import java.util.List;
import java.util.Optional;

/**
 * Whether an object may be handed out by a presigned link: only a copy the ledger holds and has proven, as it is in the
 * store now. The rule: the ledger holds the key in that store and bucket with a SHA-256; its newest HEAD and its newest
 * full read are each OK or not yet taken, and at least one of them is OK (a copy whose newest evidence is MISMATCH,
 * MISSING or ERROR is never linked, as the gate never counts it); and a HEAD now finds the object with the ledger's
 * bytes (a link to a deleted or replaced object would hand out nothing, or something else). Pure.
 */
public final class LinkEvidence {
    private LinkEvidence() {
    }

    /**
     * @param store  the store asked for
     * @param bucket the bucket the verifier reads that store in
     * @param key    the key asked for
     * @param copies the ledger's copies of the key ({@code GET /api/objects/copies})
     * @param bytesNow the object's size as a HEAD in that store answers now; null when the store answered not found
     * @return the copy to link, or why not (one line naming the key and the store)
     */
    public static Decision decide(String store, String bucket, String key, List<ObjectEvidence> copies,
                                  Long bytesNow) {
        String where = store + ":" + key;
        Optional<ObjectEvidence> copy = copies.stream()
                .filter(c -> store.equals(c.store()) && bucket.equals(c.bucket())).findFirst();
        if (copy.isEmpty() || copy.get().sha256() == null) {
            return Decision.no("the ledger holds no stored copy of " + where);
        }
        ObjectEvidence c = copy.get();
        if (bad(c.headResult()) || bad(c.fullReadResult())) {
            return Decision.no("the newest evidence of " + where + " is not OK (HEAD " + name(c.headResult())
                    + ", full read " + name(c.fullReadResult()) + ")");
        }
        if (c.headResult() != VerifyResult.OK && c.fullReadResult() != VerifyResult.OK) {
            return Decision.no(where + " is not verified yet (no OK HEAD or full read in the ledger)");
        }
        if (bytesNow == null) {
            return Decision.no(where + " is not in the store now");
        }
        if (bytesNow != c.bytes()) {
            return Decision.no(where + " holds " + bytesNow + " bytes now, the ledger " + c.bytes());
        }
        return new Decision(c, null);
    }

    private static boolean bad(VerifyResult r) {
        return r == VerifyResult.MISMATCH || r == VerifyResult.MISSING || r == VerifyResult.ERROR;
    }

    private static String name(VerifyResult r) {
        return r == null ? "none" : r.name();
    }

    /**
     * @param copy    the ledger's copy to link when allowed, else null
     * @param refusal why not, else null
     */
    public record Decision(ObjectEvidence copy, String refusal) {
        static Decision no(String why) {
            return new Decision(null, why);
        }

        /** @return true when the link may be made */
        public boolean allowed() {
            return refusal == null;
        }
    }
}
