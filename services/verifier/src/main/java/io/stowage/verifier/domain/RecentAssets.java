package io.stowage.verifier.domain;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded in-memory set of asset ids: consumes the ids of assets that had a successful full read and
 * answers whether an id is among the most recent {@code capacity} of them (least recently added ids are
 * forgotten first). Not persisted: after a restart every asset is unknown again. Not thread-safe.
 */
final class RecentAssets {
    private final Map<String, Boolean> ids;

    /** @param capacity how many asset ids to remember, at least 1 */
    RecentAssets(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("remembered assets must be at least 1: " + capacity);
        }
        this.ids = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    boolean contains(String assetId) {
        return ids.containsKey(assetId);
    }

    void add(String assetId) {
        ids.put(assetId, Boolean.TRUE);
    }

    int size() {
        return ids.size();
    }
}
