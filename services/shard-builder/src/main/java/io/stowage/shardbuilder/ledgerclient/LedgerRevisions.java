package io.stowage.shardbuilder.ledgerclient;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.stowage.auth.ClientToken;
import io.stowage.events.AssetIds;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.shardbuilder.LedgerConfig;
import io.stowage.shardformat.write.LedgerUnavailableException;
import io.stowage.shardformat.write.RevisionLookup;
import io.stowage.shardformat.write.RevisionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;

import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * Reads a dataset revision's state from the ledger ({@code GET /api/assets?id=dataset/<d>/<r>}, with the reader
 * token {@code stowage.auth.client-token}), failing closed: 404 is "not sealed", a 200 gives {@code sealed} and the
 * manifest SHA-256, anything else (unreachable, timeout, another status, unreadable JSON) is a
 * {@link LedgerUnavailableException}. Blocking: call it on a worker thread.
 */
@ApplicationScoped
public class LedgerRevisions implements RevisionLookup {
    private final LedgerApi ledger;
    private final String url;

    LedgerRevisions(LedgerConfig config, ClientToken token) {
        this.url = config.url();
        this.ledger = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(config.url()))
                .register((jakarta.ws.rs.client.ClientRequestFilter) request -> token.authorizationHeader()
                        .ifPresent(value -> request.getHeaders().putSingle("Authorization", value)))
                .connectTimeout(config.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .build(LedgerApi.class);
    }

    @Override
    public RevisionState stateOf(String dataset, String revision) {
        String json;
        try {
            json = ledger.asset(AssetIds.dataset(dataset, revision));
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() == 404) {
                return RevisionState.unsealed();
            }
            throw unavailable(dataset, revision, "HTTP " + e.getResponse().getStatus());
        } catch (RuntimeException e) {
            throw unavailable(dataset, revision, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        try {
            AssetEvidence asset = EventCodec.mapper().readValue(json, AssetEvidence.class);
            return new RevisionState(asset.sealed(), asset.manifestSha256());
        } catch (Exception e) {
            throw unavailable(dataset, revision, "unreadable answer: " + e.getMessage());
        }
    }

    private LedgerUnavailableException unavailable(String dataset, String revision, String problem) {
        String line = ("cannot tell whether dataset revision " + dataset + "@" + revision + " is already sealed: the"
                + " ledger at " + url + " did not answer (" + problem + "); refused rather than risk replacing it")
                .replace('\n', ' ').replace('\r', ' ');
        return new LedgerUnavailableException(line);
    }
}
