package io.stowage.gatekeeper.domain;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link StoreLook} for the domain tests: by default it holds every object asked about with exactly the bytes and
 * SHA-256 asked for (the store as the ledger recorded it); {@link #answer} makes one key answer otherwise (gone,
 * changed, unreachable). Counts the objects asked. The real look over S3 is tested in the storage and flow tests.
 */
final class TestStore implements StoreLook {
    private final Map<String, Seen> answers = new HashMap<>();
    final AtomicInteger asked = new AtomicInteger();

    /** @return a store holding every object the gate asks about, as recorded */
    static TestStore holdingEverything() {
        return new TestStore();
    }

    /** Makes {@code store}/{@code key} answer {@code seen} from now on. */
    TestStore answer(String store, String key, Seen seen) {
        answers.put(store + "/" + key, seen);
        return this;
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
