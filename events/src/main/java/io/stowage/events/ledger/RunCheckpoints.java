package io.stowage.events.ledger;

import java.util.List;

/**
 * Answer of {@code GET /api/checkpoints/steps?experiment=E&run=R}: every checkpoint step of one run the ledger knows,
 * ascending by step. Retention plans from it.
 */
public record RunCheckpoints(String experiment, String run, List<CheckpointStepEvidence> steps) {
}
