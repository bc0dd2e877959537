package io.stowage.provideradapter.domain.retention;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** Where the runs' standing retention policies are kept: one per run, durable before a call returns. */
public interface RetentionSchedules {

    /**
     * Sets (or replaces) the run's schedule.
     *
     * @throws IOException when it cannot be made durable; the previous schedule, if any, still holds
     */
    void put(RetentionSchedule schedule) throws IOException;

    /**
     * @return the removed schedule, empty when the run had none
     * @throws IOException when the removal cannot be made durable
     */
    Optional<RetentionSchedule> remove(String experiment, String run) throws IOException;

    /** @return every readable schedule, by experiment then run */
    List<RetentionSchedule> all();

    /** @return one line per schedule file that could not be read (never applied, left on disk) */
    List<String> unreadable();
}
