package io.stowage.gatekeeper.domain;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Conditions 1 and 4 at decision time: every object whose ledger evidence the gate accepted is HEADed in its store
 * now, through {@link StoreLook}; and condition 2: the objects whose full read it counts are read in full again
 * ({@link #reread}), since a HEAD does not see a byte changed without a change of size or metadata. An object that is no longer there, whose size differs from its manifest entry, or
 * whose {@code sha256} metadata names another digest fails the gate; so does an object the store could not be asked
 * about (the gate keeps the data when it cannot see). A primary object's failure is condition 1's, a replica
 * object's is condition 4's.
 */
final class StoreChecks {
    private final StoreLook store;
    private final Findings findings;

    StoreChecks(StoreLook store, Findings findings) {
        this.store = store;
        this.findings = findings;
    }

    /**
     * Looks at {@code objects} in their stores (HEAD) and records a failure per object that is not as expected.
     *
     * @return the objects that are not as expected: gone, changed, or not seen (the store unreachable)
     */
    Set<StoreLook.StoredObject> check(Collection<StoreLook.StoredObject> objects) {
        if (objects.isEmpty()) {
            return new HashSet<>();
        }
        Set<StoreLook.StoredObject> notAsStored = classify(objects, store.head(objects), "the store holds");
        long replicas = objects.stream().filter(o -> ObjectChecks.REPLICA.equals(o.store())).count();
        findings.note(1, (objects.size() - notAsStored.size()) + " of " + objects.size() + " object(s)"
                + (replicas == 0 ? "" : " (" + (objects.size() - replicas) + " primary, " + replicas + " replica)")
                + " HEADed in their store at decision time with the expected bytes and SHA-256 metadata");
        return notAsStored;
    }

    /**
     * Reads {@code objects} in full in their stores and records a failure per object whose bytes are not the manifest's:
     * a primary object's as {@link GateCheck#STORE_OBJECT_CHANGED} (or gone, or unreachable), a replica's as
     * {@link GateCheck#NO_REPLICA_COPY}; condition 2 notes how many were read as expected.
     *
     * @return the objects that are not as expected
     */
    Set<StoreLook.StoredObject> reread(Collection<StoreLook.StoredObject> objects) {
        if (objects.isEmpty()) {
            return new HashSet<>();
        }
        Set<StoreLook.StoredObject> notAsStored = classify(objects, store.readInFull(objects),
                "read in full at decision time, the store holds");
        findings.note(2, (objects.size() - notAsStored.size()) + " of " + objects.size() + " object(s) re-read in full"
                + " at decision time, each with its manifest's bytes and SHA-256");
        return notAsStored;
    }

    private Set<StoreLook.StoredObject> classify(Collection<StoreLook.StoredObject> objects,
                                                 Map<StoreLook.StoredObject, StoreLook.Seen> seen, String holds) {
        Set<StoreLook.StoredObject> notAsStored = new HashSet<>();
        for (StoreLook.StoredObject object : objects) {
            StoreLook.Seen look = seen.get(object);
            String where = object.key() + " in " + object.store();
            boolean replica = ObjectChecks.REPLICA.equals(object.store());
            if (look == null || look.state() == StoreLook.State.UNREACHABLE) {
                findings.fail(GateCheck.STORE_UNREACHABLE, where + (look == null || look.detail() == null
                        ? "" : ": " + look.detail()));
            } else if (look.state() == StoreLook.State.MISSING) {
                findings.fail(replica ? GateCheck.NO_REPLICA_COPY : GateCheck.STORE_OBJECT_GONE,
                        where + ": no object at the key at decision time");
            } else if (look.bytes() != object.bytes()
                    || (look.sha256() != null && !look.sha256().equalsIgnoreCase(object.sha256()))) {
                findings.fail(replica ? GateCheck.NO_REPLICA_COPY : GateCheck.STORE_OBJECT_CHANGED,
                        where + ": " + holds + " " + look.bytes() + " bytes" + (look.sha256() == null ? ""
                                : " with sha256 " + look.sha256()) + ", the manifest " + object.bytes()
                                + " bytes with sha256 " + object.sha256());
            } else {
                continue;
            }
            notAsStored.add(object);
        }
        return notAsStored;
    }
}
