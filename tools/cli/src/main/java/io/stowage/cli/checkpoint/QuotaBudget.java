package io.stowage.cli.checkpoint;

import io.stowage.events.VolumeQuota;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The bytes a writer may still put on the local provider volume holding its target: the volume's quota
 * less what it held when writing began. {@link #spend} throws before a write would pass it. Unlimited when the
 * target is on no volume.
 */
final class QuotaBudget {
    private final VolumeQuota quota;
    private final long usedAtStart;
    private long spent;

    private QuotaBudget(VolumeQuota quota, long usedAtStart) {
        this.quota = quota;
        this.usedAtStart = usedAtStart;
    }

    /** @return the budget of the volume enclosing {@code target} (which need not exist yet) */
    static QuotaBudget of(Path target) throws IOException {
        Optional<VolumeQuota> quota = VolumeQuota.of(target);
        return quota.isPresent() ? new QuotaBudget(quota.get(), quota.get().usedBytes()) : new QuotaBudget(null, 0);
    }

    /** @throws VolumeQuota.QuotaExceededException when {@code bytes} more would pass the quota; nothing is counted then */
    synchronized void spend(long bytes) throws VolumeQuota.QuotaExceededException {
        if (quota != null && usedAtStart + spent + bytes > quota.quotaBytes()) {
            throw new VolumeQuota.QuotaExceededException(quota.volumeDir(), quota.quotaBytes(), usedAtStart + spent,
                    bytes);
        }
        spent += bytes;
    }
}
