package io.stowage.gatekeeper.domain;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Conditions 1 and 4 at decision time: every object whose ledger evidence the gate accepted is HEADed in its store
 * now, through {@link StoreLook}. An object that is no longer there, whose size differs from its manifest entry, or
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
     * Looks at {@code objects} in their stores and records a failure per object that is not as expected.
     *
     * @return the objects that are not as expected: gone, changed, or not seen (the store unreachable)
     */
    Set<StoreLook.StoredObject> check(Collection<StoreLook.StoredObject> objects) {
        Set<StoreLook.StoredObject> notAsStored = new HashSet<>();
        if (objects.isEmpty()) {
            return notAsStored;
        }
        Map<StoreLook.StoredObject, StoreLook.Seen> seen = store.head(objects);
        int present = 0;
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
                        where + ": the store holds " + look.bytes() + " bytes" + (look.sha256() == null ? ""
                                : " with sha256 " + look.sha256()) + ", the manifest " + object.bytes()
                                + " bytes with sha256 " + object.sha256());
            } else {
                present++;
                continue;
            }
            notAsStored.add(object);
        }
        findings.note(1, present + " of " + objects.size() + " object(s) HEADed in their store at decision time"
                + " with the expected bytes and SHA-256 metadata");
        return notAsStored;
    }
}
