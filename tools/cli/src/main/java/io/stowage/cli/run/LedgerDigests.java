package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JavaType;
import io.stowage.cli.CliException;
import io.stowage.cli.audit.AuditStoreLedger;
import io.stowage.cli.client.HttpJson;
import io.stowage.events.EventCodec;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.ObjectEvidence;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks that every SHA-256 a capsule names as a stored object (data manifest, checkpoint to resume from, model)
 * is a verified object in the ledger: reads the ledger's objects of both stores ({@code GET /api/objects}, paged)
 * and produces a {@link LintProblem} for each digest that no object has, or whose objects are not verified.
 */
public final class LedgerDigests {
    private static final List<String> STORES = List.of("primary", "replica");

    private LedgerDigests() {
    }

    /**
     * @param ledger the ledger's base URL
     * @return every object the ledger records, in both stores
     * @throws CliException (exit 1) when the ledger cannot be reached or refuses the token
     */
    public static List<ObjectEvidence> objects(URI ledger) {
        JavaType type = EventCodec.mapper().constructType(AuditStoreLedger.Page.class);
        HttpJson http = new HttpJson();
        List<ObjectEvidence> objects = new ArrayList<>();
        for (String store : STORES) {
            String after = "";
            do {
                String cursor = after;
                AuditStoreLedger.Page page = http.<AuditStoreLedger.Page>get(ledger.resolve("/api/objects?store=" + store
                                + "&limit=1000&after=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)), type)
                        .orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/objects"));
                objects.addAll(page.objects());
                if (cursor.equals(page.next())) {
                    throw new CliException(CliException.FAILED, "the ledger's /api/objects repeats the page after " + cursor);
                }
                after = page.next();
            } while (after != null);
        }
        return objects;
    }

    /**
     * A digest is verified when some object carrying it has a newest HEAD result of OK and no copy of it has a newest
     * HEAD or full-read result of MISMATCH or MISSING.
     *
     * @param digests field name to SHA-256 ({@link CapsuleLint#storedDigests})
     * @param objects the ledger's objects ({@link #objects})
     * @return a problem per digest that is unknown or not verified, in the order of {@code digests}
     */
    public static List<LintProblem> judge(Map<String, String> digests, List<ObjectEvidence> objects) {
        List<LintProblem> problems = new ArrayList<>();
        digests.forEach((field, sha) -> {
            List<ObjectEvidence> copies = objects.stream().filter(o -> sha.equals(o.sha256())).toList();
            boolean headOk = copies.stream().anyMatch(o -> o.headResult() == VerifyResult.OK);
            List<ObjectEvidence> bad = copies.stream().filter(o -> failed(o.headResult()) || failed(o.fullReadResult())).toList();
            String expected = "the SHA-256 of an object the ledger records as uploaded and verified";
            if (copies.isEmpty()) {
                problems.add(new LintProblem(field, sha + " is no object in the ledger", expected));
            } else if (!bad.isEmpty()) {
                ObjectEvidence o = bad.get(0);
                problems.add(new LintProblem(field, sha + " failed verification at " + o.store() + " " + o.key()
                        + " (HEAD " + o.headResult() + ", full read " + o.fullReadResult() + ")", expected));
            } else if (!headOk) {
                problems.add(new LintProblem(field, sha + " is stored at " + copies.get(0).key() + " but not verified yet", expected));
            }
        });
        return problems;
    }

    private static boolean failed(VerifyResult result) {
        return result == VerifyResult.MISMATCH || result == VerifyResult.MISSING;
    }
}
