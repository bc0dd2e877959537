package io.stowage.verifier.messaging;

import io.smallrye.reactive.messaging.annotations.Blocking;
import io.stowage.events.EventCodec;
import io.stowage.events.ObjectUploaded;
import io.stowage.events.ObjectVerified;
import io.stowage.events.Topics;
import io.stowage.events.VerifyResult;
import io.stowage.messaging.IncomingEvents;
import io.stowage.messaging.Outcome;
import io.stowage.verifier.app.VerifyWork;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Consumes {@code object.uploaded} (consumer group {@code stowage-verifier}) and produces {@code object.verified}, in
 * the {@link IncomingEvents} shape. A record that is not a valid event goes to {@code object.uploaded.dlq}. A result
 * {@code ERROR} (the store could not be read, after the reader's own retries) is transient: the object is verified
 * again with backoff; when the last attempt still cannot read it, its results are published (the gate denies on
 * them) and the record is dead-lettered with the reason.
 * <p>
 * Records are verified side by side, up to {@code stowage.verifier.objects-in-flight} at once (the {@code verify-objects}
 * worker pool, unordered), so that the many small files of one checkpoint step are not one-by-one round trips; each
 * record is still acked only after its own results were published, and the connector commits an offset only once every
 * record before it was acked (throttled commit strategy), so a crash re-verifies what was not finished.
 */
@ApplicationScoped
public class VerifyConsumer {
    private final VerifyWork work;
    private final IncomingEvents incoming;

    VerifyConsumer(VerifyWork work, IncomingEvents incoming) {
        this.work = work;
        this.incoming = incoming;
    }

    /** One uploaded object to verify; completes after the record is acked (results published) or nacked. */
    @Incoming("object-uploaded")
    @Blocking(value = "verify-objects", ordered = false)
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> onObjectUploaded(Message<byte[]> record) {
        return incoming.handle(record, Topics.OBJECT_UPLOADED,
                value -> EventCodec.decode(ObjectUploaded.class, value), this::verify);
    }

    private Outcome verify(ObjectUploaded event) {
        List<ObjectVerified> results = work.verify(event);
        return results.stream().filter(r -> r.result() == VerifyResult.ERROR).findFirst()
                .map(error -> Outcome.transientFailure(results, "store unreadable: " + error.method() + " "
                        + error.store() + " " + error.key() + ": " + error.detail()))
                .orElseGet(() -> Outcome.done(results));
    }
}
