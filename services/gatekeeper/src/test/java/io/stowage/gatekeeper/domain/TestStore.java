package io.stowage.gatekeeper.domain;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link StoreLook} for the domain tests: by default it holds every object asked about with exactly the bytes and
 * SHA-256 asked for (the store as the ledger recorded it); {@link #answer} makes one key answer otherwise (gone,
 * changed, unreachable), {@link #content} makes one key's full read answer otherwise. Counts the objects asked and
 * keeps those read in full. The real look over S3 is tested in the storage and flow tests.
 */
final class TestStore implements StoreLook {
    private final Map<String, Seen> answers = new HashMap<>();
    private final Map<String, Seen> contents = new HashMap<>();
    final AtomicInteger asked = new AtomicInteger();
    final java.util.List<StoredObject> read = new java.util.ArrayList<>();

    /** @return a store holding every object the gate asks about, as recorded */
    static TestStore holdingEverything() {
        return new TestStore();
    }

    /** Makes {@code store}/{@code key} answer {@code seen} from now on. */
    TestStore answer(String store, String key, Seen seen) {
        answers.put(store + "/" + key, seen);
        return this;
    }

    /**
     * Makes a full read of {@code store}/{@code key} answer {@code seen} from now on (its HEAD is unchanged: a byte
     * changed in the store without a change of size or metadata).
     */
    TestStore content(String store, String key, Seen seen) {
        contents.put(store + "/" + key, seen);
        return this;
    }

    @Override
    public Map<StoredObject, Seen> readInFull(Collection<StoredObject> objects) {
        Map<StoredObject, Seen> out = new LinkedHashMap<>();
        for (StoredObject object : objects) {
            read.add(object);
            String at = object.store() + "/" + object.key();
            out.put(object, contents.getOrDefault(at, answers.getOrDefault(at, Seen.present(object.bytes(), object.sha256()))));
        }
        return out;
    }

    @Override
    public Map<StoredObject, Seen> head(Collection<StoredObject> objects) {
        Map<StoredObject, Seen> out = new LinkedHashMap<>();
        for (StoredObject object : objects) {
            asked.incrementAndGet();
            out.put(object, answers.getOrDefault(object.store() + "/" + object.key(),
                    Seen.present(object.bytes(), object.sha256())));
        }
        return out;
    }
}
