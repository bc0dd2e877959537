package io.stowage.provideradapter.domain.retention;

import io.stowage.events.CheckpointExpired;
import io.stowage.events.CheckpointExpired.ExpiredObject;
import io.stowage.events.RetentionRefused;
import io.stowage.events.RetentionRefused.Refusal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One authentic retention decision with something to delete, in the {@link RetentionJournal}: DELETING (recorded,
 * with every step to delete and its objects, before the first deletion), DONE (the outcome events, with their event
 * ids, recorded before they are sent), and {@code sent} once Kafka acknowledged them. Each step is journaled on its
 * own: PENDING, DELETING (recorded before its first object is deleted), then EXPIRED (HEAD-confirmed, with its
 * checkpoint.expired), REFUSED (with why and what was already gone) or ALREADY_EXPIRED (the ledger recorded its
 * expiry meanwhile).
 *
 * @param decisionId the decision's event id, the journal's key
 * @param state      where the decision is
 * @param decision   the retention.decided value bytes exactly as signed (Base64 in the file)
 * @param signature  the hex HMAC that authenticated them; checked again before a recovery deletes anything
 * @param steps      the steps ExpiryCheck let through, ascending as the decision lists them
 * @param refusals   what ExpiryCheck refused before anything was deleted
 * @param refused    the retention.refused of the outcome, null before DONE or when nothing was refused
 * @param sent       true once the outcome was acknowledged by Kafka
 * @param updatedAt  when this state was recorded
 */
public record RetentionEntry(String decisionId, State state, byte[] decision, String signature, List<StepEntry> steps,
                             List<Refusal> refusals, RetentionRefused refused, boolean sent, Instant updatedAt) {

    /** Where a decision is. */
    public enum State { DELETING, DONE }

    /** Where one step of a decision is. */
    public enum StepState { PENDING, DELETING, EXPIRED, REFUSED, ALREADY_EXPIRED }

    /**
     * One step of a decision.
     *
     * @param objects the ledger's objects of the step (store, bucket, key, bytes) that the decision named: the only keys
     *                this entry may ever delete
     * @param expired the step's checkpoint.expired once EXPIRED, else null
     * @param reason  why it was refused once REFUSED, else null
     */
    public record StepEntry(long step, StepState state, List<ExpiredObject> objects, CheckpointExpired expired,
                            String reason) {
        /** @return true while the step still has to be deleted or confirmed */
        public boolean unfinished() {
            return state == StepState.PENDING || state == StepState.DELETING;
        }
    }

    /** @return the entry of a decision about to delete {@code deletions}, nothing deleted yet */
    public static RetentionEntry deleting(String decisionId, byte[] decision, String signature,
                                          List<ExpiryCheck.Deletion> deletions, List<Refusal> refusals, Instant now) {
        List<StepEntry> steps = deletions.stream()
                .map(d -> new StepEntry(d.step(), StepState.PENDING, List.copyOf(d.objects()), null, null)).toList();
        return new RetentionEntry(decisionId, State.DELETING, decision, signature, steps, List.copyOf(refusals), null,
                false, now);
    }

    /** @return this entry with step number {@code index} (position in {@link #steps}) replaced */
    public RetentionEntry withStep(int index, StepEntry step, Instant now) {
        List<StepEntry> next = new ArrayList<>(steps);
        next.set(index, step);
        return new RetentionEntry(decisionId, state, decision, signature, List.copyOf(next), refusals, refused, sent, now);
    }

    /** @return this entry done, its outcome {@code refused} (null when nothing was refused), not yet sent */
    public RetentionEntry done(RetentionRefused outcomeRefused, Instant now) {
        return new RetentionEntry(decisionId, State.DONE, decision, signature, steps, refusals, outcomeRefused, false, now);
    }

    /** @return this entry with its outcome acknowledged by Kafka */
    public RetentionEntry markedSent(Instant now) {
        return new RetentionEntry(decisionId, state, decision, signature, steps, refusals, refused, true, now);
    }

    /** @return the checkpoint.expired of every EXPIRED step, in step order of the decision */
    public List<CheckpointExpired> expired() {
        return steps.stream().filter(s -> s.state() == StepState.EXPIRED).map(StepEntry::expired).toList();
    }

    /** @return true when done and its outcome still has to be sent */
    public boolean unsent() {
        return state == State.DONE && !sent;
    }
}
