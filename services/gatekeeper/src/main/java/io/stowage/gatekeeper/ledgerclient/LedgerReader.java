package io.stowage.gatekeeper.ledgerclient;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.stowage.auth.ClientToken;
import io.stowage.events.EventCodec;
import io.stowage.events.FailedCondition;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.GatekeeperConfig;
import io.stowage.gatekeeper.LedgerConfig;
import io.stowage.gatekeeper.domain.GateAnswer;
import io.stowage.gatekeeper.domain.GateCheck;
import io.stowage.gatekeeper.domain.LedgerProgress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import org.jboss.logging.Logger;

import java.net.URI;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reads the ledger for one release request, failing closed. When the request arrives it takes the end offsets of
 * every partition of the evidence topics ({@link LedgerProgress#EVIDENCE_TOPICS}, from {@code GET /api/lag}); then it
 * polls until the ledger has stored the request itself ({@code GET /api/events/{id}}) and its consumer group has
 * committed every one of those partitions up to that end (up to {@code stowage.gatekeeper.ledger-wait}). The ledger
 * acks a batch, making its offsets committable, only after the batch's transaction committed, so a committed offset
 * never runs ahead of what it stored. Then it asks whether the ledger already holds this request's decision
 * ({@link GateAnswer#decisionId}), and if not reads {@code GET /api/evidence?path=}. Blocking: call it on a worker
 * thread.
 */
@ApplicationScoped
public class LedgerReader {
    private static final Logger LOG = Logger.getLogger(LedgerReader.class);

    private final LedgerApi ledger;
    private final GatekeeperConfig config;

    /** @param token the reader token presented to the ledger ({@code stowage.auth.client-token}; without one the ledger answers 401) */
    LedgerReader(LedgerConfig ledgerConfig, GatekeeperConfig config, ClientToken token) {
        this.config = config;
        this.ledger = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(ledgerConfig.url()))
                .register((jakarta.ws.rs.client.ClientRequestFilter) request -> token.authorizationHeader()
                        .ifPresent(value -> request.getHeaders().putSingle("Authorization", value)))
                .connectTimeout(config.ledgerTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.ledgerTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .build(LedgerApi.class);
    }

    /**
     * @return the evidence for the request's path; or that the ledger already holds this request's decision; or a
     *         condition-0 failure: "ledger-behind" when the ledger kept answering 404 for the request event or had
     *         not committed the evidence topics up to their end at arrival (with the records behind per topic) or
     *         reports no partition of one of them (a topic missing on the broker, named), "ledger-unavailable" otherwise
     */
    public LedgerAnswer read(ReleaseRequested request) {
        String eventId = request.meta().eventId();
        long deadline = System.nanoTime() + config.ledgerWait().toNanos();
        String lastProblem = "no answer";
        boolean behind = false;
        Map<String, Long> atArrival = null;
        while (true) {
            try {
                if (atArrival == null) {
                    atArrival = LedgerProgress.snapshot(progress());
                }
                ledger.event(eventId);
                Map<String, Long> lag = LedgerProgress.behind(atArrival, progress());
                if (lag.isEmpty()) {
                    return decidedOrEvidence(request);
                }
                behind = true;
                lastProblem = LedgerProgress.describe(lag);
            } catch (LedgerProgress.MissingTopics e) {
                behind = true;
                lastProblem = e.getMessage();
            } catch (WebApplicationException e) {
                behind = e.getResponse().getStatus() == 404;
                lastProblem = behind ? "request event not stored" : "HTTP " + e.getResponse().getStatus();
            } catch (RuntimeException e) {
                behind = false;
                lastProblem = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            if (System.nanoTime() >= deadline || !pause(config.ledgerPoll())) {
                return failure(request, behind, lastProblem);
            }
        }
    }

    // once caught up, a decision sent for an earlier delivery of this request is in the ledger
    private LedgerAnswer decidedOrEvidence(ReleaseRequested request) {
        String decisionId = GateAnswer.decisionId(request);
        try {
            ledger.event(decisionId);
            return LedgerAnswer.alreadyDecided(decisionId);
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() != 404) {
                throw e;
            }
        }
        return evidence(request);
    }

    private List<LedgerProgress.Partition> progress() {
        String lag;
        try {
            lag = ledger.lag();
        } catch (WebApplicationException e) {
            throw new IllegalStateException("GET /api/lag answered HTTP " + e.getResponse().getStatus(), e);
        }
        try {
            JsonNode partitions = EventCodec.mapper().readTree(lag).path("partitions");
            List<LedgerProgress.Partition> result = new ArrayList<>();
            for (JsonNode p : partitions) {
                result.add(new LedgerProgress.Partition(p.path("topic").asText(), p.path("partition").asInt(),
                        p.path("consumed").asLong(0), p.path("end").asLong(Long.MAX_VALUE)));
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("ledger lag unreadable: " + e.getMessage(), e);
        }
    }

    private LedgerAnswer evidence(ReleaseRequested request) {
        try {
            ReleaseEvidence evidence = EventCodec.mapper().readValue(ledger.evidence(request.path()),
                    ReleaseEvidence.class);
            return LedgerAnswer.of(evidence);
        } catch (Exception e) {
            return failure(request, false, "evidence unreadable: " + e.getMessage());
        }
    }

    private LedgerAnswer failure(ReleaseRequested request, boolean behind, String problem) {
        GateCheck check = behind ? GateCheck.LEDGER_BEHIND : GateCheck.LEDGER_UNAVAILABLE;
        String detail = check.label() + ": event " + request.meta().eventId() + " after "
                + config.ledgerWait().toSeconds() + " s (" + problem + ")";
        LOG.warnf("ledger %s for %s event %s asset %s: %s", check.code(), request.topic(), request.meta().eventId(),
                request.assetId(), problem);
        return LedgerAnswer.failed(new FailedCondition(check.condition(), check.code(), oneLine(detail)));
    }

    private static boolean pause(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String oneLine(String text) {
        String flat = text.replaceAll("[\\r\\n]+", " ");
        return flat.length() > 400 ? flat.substring(0, 400) + "..." : flat;
    }
}
