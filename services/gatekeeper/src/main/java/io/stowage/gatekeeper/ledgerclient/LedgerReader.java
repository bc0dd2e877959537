package io.stowage.gatekeeper.ledgerclient;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.stowage.auth.ClientToken;
import io.stowage.events.EventCodec;
import io.stowage.events.FailedCondition;
import io.stowage.events.ReleaseRequested;
import io.stowage.events.ledger.ReleaseEvidence;
import io.stowage.gatekeeper.GatekeeperConfig;
import io.stowage.gatekeeper.LedgerConfig;
import io.stowage.gatekeeper.domain.GateCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Reads the ledger for one release request, failing closed: polls {@code GET /api/events/{id}}
 * until the ledger has stored the request itself (up to {@code stowage.gatekeeper.ledger-wait}),
 * then reads {@code GET /api/evidence?path=}. Blocking: call it on a worker thread.
 */
@ApplicationScoped
public class LedgerReader {
    private static final Logger LOG = Logger.getLogger(LedgerReader.class);

    private final LedgerApi ledger;
    private final GatekeeperConfig config;

    /** @param token the reader token presented to the ledger ({@code stowage.auth.client-token}, issue #8) */
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
     * @return the evidence for the request's path, or a condition-0 failure: "ledger-behind" when
     *         the ledger kept answering 404 for the request event, "ledger-unavailable" otherwise
     */
    public LedgerAnswer read(ReleaseRequested request) {
        String eventId = request.meta().eventId();
        long deadline = System.nanoTime() + config.ledgerWait().toNanos();
        String lastProblem = "no answer";
        boolean behind = false;
        while (true) {
            try {
                ledger.event(eventId);
                return evidence(request);
            } catch (WebApplicationException e) {
                behind = e.getResponse().getStatus() == 404;
                lastProblem = "HTTP " + e.getResponse().getStatus();
            } catch (RuntimeException e) {
                behind = false;
                lastProblem = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            if (System.nanoTime() >= deadline || !pause(config.ledgerPoll())) {
                return failure(request, behind, lastProblem);
            }
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
