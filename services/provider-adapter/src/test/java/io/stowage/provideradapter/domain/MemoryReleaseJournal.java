package io.stowage.provideradapter.domain;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A {@link ReleaseJournal} in memory for plain tests; every save fails while {@code broken} is set. */
public final class MemoryReleaseJournal implements ReleaseJournal {
    public final Map<String, ReleaseEntry> entries = new LinkedHashMap<>();
    public final List<ReleaseEntry> saves = new ArrayList<>();
    public boolean broken;

    @Override
    public Optional<ReleaseEntry> entry(String requestId) {
        return Optional.ofNullable(entries.get(requestId));
    }

    @Override
    public void save(ReleaseEntry entry) throws IOException {
        if (broken) {
            throw new IOException("disk full");
        }
        saves.add(entry);
        entries.put(entry.requestId(), entry);
    }

    @Override
    public List<ReleaseEntry> entries() {
        return List.copyOf(entries.values());
    }
}
