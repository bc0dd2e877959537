package io.stowage.shardbuilder.api;

import io.stowage.auth.Roles;
import jakarta.annotation.security.RolesAllowed;
import io.smallrye.common.annotation.Blocking;
import io.stowage.events.AssetIds;
import io.stowage.events.BaselineArchived;
import io.stowage.shardbuilder.ShardBuilderConfig;
import io.stowage.shardbuilder.domain.ArchivedBaseline;
import io.stowage.shardbuilder.domain.BaselineArchiver;
import io.stowage.shardbuilder.domain.BaselineEvents;
import io.stowage.shardbuilder.domain.BaselineRequest;
import io.stowage.shardformat.write.DatasetInputException;
import io.stowage.shardformat.write.ShardWriter;
import io.stowage.messaging.EventPublisher;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Clock;
import java.util.List;

/**
 * {@code POST /api/baselines/archive}: consumes a {@link BaselineRequestBody}, archives the directory synchronously on
 * a worker thread as one hash-bound {@code tar.zst} with its member manifest ({@link BaselineArchiver}), publishes
 * {@code baseline.archived} and answers a {@link BaselineResponse} once Kafka acknowledged it. With
 * {@code "dryRun": true} it answers the same figures and keys without keeping a file or publishing anything.
 */
@Path("/api/baselines/archive")
@RolesAllowed(Roles.READER)
public class BaselineResource {
    private static final Logger LOG = Logger.getLogger(BaselineResource.class);
    private final ShardBuilderConfig config;
    private final EventPublisher publisher;
    private final BaselineArchiver archiver;
    private final Clock clock = Clock.systemUTC();

    BaselineResource(ShardBuilderConfig config, EventPublisher publisher) {
        this.config = config;
        this.publisher = publisher;
        this.archiver = new BaselineArchiver(new ShardWriter(config.sourceDateEpoch()));
    }

    /**
     * @return 200 with the archive's keys and figures; 400 {@code {"error"}} for a bad model or milestone name, a
     *         missing, relative or empty directory, anything but regular files, or a staging directory inside it;
     *         500 when a file changed while read, or writing or publishing fails (then no event is sent)
     */
    @POST
    @RolesAllowed(Roles.OPERATOR)
    @Blocking
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public BaselineResponse archive(BaselineRequestBody body) throws IOException {
        if (body == null) {
            throw new DatasetInputException("the request has no JSON body");
        }
        String staging = body.stagingDir() == null ? config.stagingDir() : body.stagingDir();
        BaselineRequest request = new BaselineRequest(ShardResource.absolute("dir", body.dir()), body.model(), body.milestone(),
                ShardResource.absolute("stagingDir", staging));
        boolean dryRun = Boolean.TRUE.equals(body.dryRun());
        ArchivedBaseline archived = dryRun ? archiver.plan(request) : archiver.archive(request);
        String eventId = null;
        if (!dryRun) {
            BaselineArchived event = BaselineEvents.of(archived, clock);
            publisher.sendAll(List.of(event));
            eventId = event.meta().eventId();
        }
        var m = archived.manifest();
        LOG.infof("baseline %s %s: %s (%d members, %d bytes)", AssetIds.baseline(m.model(), m.milestone()),
                dryRun ? "planned" : "archived", m.key(), m.memberCount(), m.memberBytes());
        return new BaselineResponse(AssetIds.baseline(m.model(), m.milestone()), archived.sourceDir().toString(),
                m.key(), m.bytes(), m.sha256(), m.membersKey(), m.membersBytes(), m.membersSha256(), m.memberCount(),
                m.memberBytes(), dryRun ? null : archived.archive().path().toString(),
                dryRun ? null : archived.manifestFile().path().toString(),
                archived.manifestSha256(), eventId, dryRun, archived.entries());
    }
}
