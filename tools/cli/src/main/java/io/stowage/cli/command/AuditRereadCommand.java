package io.stowage.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code stowage audit reread ASSET [--limit N] [--json]}: asks the verifier ({@code POST /api/rereads}, operator token)
 * to re-read every object of one asset in full now, in every store, waits until the ledger has recorded each result,
 * and prints one line per object ({@code OK|MISMATCH|MISSING|ERROR store key}). Exit 0 when every object read OK, 1
 * when one did not (or a service cannot be reached), 2 for bad input, 4 for a missing or non-operator token.
 */
@Command(name = "reread", mixinStandardHelpOptions = true,
        description = {"Re-read every object of one asset in full now (every store) and record the results in the ledger.",
                "Use it after the gate denied a release for a dead letter on an evidence topic (it clears once every"
                        + " object was re-read in full after it), or to check the copies after a repair; the rolling scrub"
                        + " does the same over its period."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every object re-read OK", "1:an object MISMATCH, MISSING or ERROR; or a service unreachable",
                "2:bad input (an asset the ledger holds no object of, a --limit outside 1-1000)",
                "4:no operator token"})
final class AuditRereadCommand implements Callable<Integer> {
    @Parameters(paramLabel = "ASSET", description = "The asset id, e.g. dataset/speech/r1 or checkpoint/exp/run/000000000300.")
    String assetId;
    @Option(names = "--limit", paramLabel = "N", defaultValue = "1000", description = "The most objects to read in this"
            + " request, 1-1000 (least recently re-read first: run it again for the rest). Default ${DEFAULT-VALUE}.")
    int limit;
    @Option(names = "--json", description = "Print {\"assetId\":…,\"results\":[{\"eventId\",\"store\",\"key\",\"result\",\"detail\"}]} as one line.")
    boolean json;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 1000) {
            throw new CliException(CliException.USAGE, "--limit must be from 1 to 1000");
        }
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        Progress progress = new Progress(System.err, json);
        progress.step("re-reading every object of " + assetId + " in full");
        // a 4xx (an asset the ledger holds no object of) is exit 2, a 5xx or no answer exit 1, 401/403 exit 4
        JsonNode answer = new HttpJson().post(session.serviceUrl("verifier").resolve("/api/rereads"),
                Map.of("assetId", assetId, "limit", limit), JsonNode.class, Duration.ofHours(6));
        LedgerClient ledger = new LedgerClient(session.serviceUrl("ledger"));
        boolean allOk = true;
        for (JsonNode r : answer.path("results")) {
            ledger.awaitEvent(r.path("eventId").asText(), Duration.ofSeconds(60));
            allOk &= "OK".equals(r.path("result").asText());
        }
        if (json) {
            JsonOut.print(answer);
        } else {
            for (JsonNode r : answer.path("results")) {
                System.out.println(r.path("result").asText() + " " + r.path("store").asText() + " " + r.path("key").asText()
                        + ("OK".equals(r.path("result").asText()) ? "" : " (" + r.path("detail").asText() + ")"));
            }
            progress.step(answer.path("results").size() + " object(s) re-read and recorded in the ledger"
                    + (allOk ? ", every one OK" : "; not every one OK"));
        }
        return allOk ? 0 : CliException.FAILED;
    }
}
