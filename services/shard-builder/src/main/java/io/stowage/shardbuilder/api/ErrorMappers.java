package io.stowage.shardbuilder.api;

import io.stowage.shardformat.write.DatasetInputException;
import io.stowage.shardformat.write.LedgerUnavailableException;
import io.stowage.shardformat.write.RevisionSealedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns exceptions into JSON answers: bad input (a {@link DatasetInputException}) is a 400, an
 * HTTP error keeps its status, anything else is a 500; the body is always {@code {"error": "one line"}}.
 */
public class ErrorMappers {
    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    /** @return 400 with the one-line reason (bad name, missing directory, symlink, ...) */
    @ServerExceptionMapper
    public Response badInput(DatasetInputException e) {
        LOG.infof("refused: %s", e.getMessage());
        return json(Response.Status.BAD_REQUEST.getStatusCode(), ErrorBody.of(e));
    }

    /** @return 409 naming the revision: it is sealed with other content, and a sealed revision never changes */
    @ServerExceptionMapper
    public Response sealed(RevisionSealedException e) {
        LOG.warnf("refused: %s", e.getMessage());
        return json(Response.Status.CONFLICT.getStatusCode(), ErrorBody.of(e));
    }

    /** @return 503: the ledger could not say whether the revision is sealed, so nothing was sealed or sent */
    @ServerExceptionMapper
    public Response ledgerUnavailable(LedgerUnavailableException e) {
        LOG.warnf("refused: %s", e.getMessage());
        return json(Response.Status.SERVICE_UNAVAILABLE.getStatusCode(), ErrorBody.of(e));
    }

    /** @return the exception's own HTTP status (e.g. 400 for unreadable JSON, 415, 404) */
    @ServerExceptionMapper
    public Response httpError(WebApplicationException e) {
        return json(e.getResponse().getStatus(), ErrorBody.of(e));
    }

    /** @return 500 for anything else (I/O failure, Kafka refused or did not acknowledge in time), logged with its stack */
    @ServerExceptionMapper
    public Response failure(Exception e) {
        LOG.error("sharding failed", e);
        return json(Response.Status.INTERNAL_SERVER_ERROR.getStatusCode(), ErrorBody.of(e));
    }

    private static Response json(int status, ErrorBody body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
    }
}
