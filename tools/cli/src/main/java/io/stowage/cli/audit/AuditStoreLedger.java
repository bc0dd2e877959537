package io.stowage.cli.audit;

import com.fasterxml.jackson.databind.JavaType;
import io.stowage.cli.CliException;
import io.stowage.cli.client.HttpJson;
import io.stowage.events.EventCodec;
import io.stowage.events.ledger.ObjectEvidence;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Produces the ledger's side of the store audit: pages through {@code GET /api/objects?store=&after=&limit=1000}
 * and keeps the objects recorded for one bucket.
 */
public final class AuditStoreLedger {
    private static final int PAGE = 1000;

    /** One page of {@code GET /api/objects}: objects in key order and the next page's {@code after} (null at the end). */
    public record Page(List<ObjectEvidence> objects, String next) {
    }

    private final URI base;
    private final HttpJson http = new HttpJson();

    /** @param base the ledger's base URL, e.g. {@code http://127.0.0.1:8086} */
    public AuditStoreLedger(URI base) {
        this.base = base;
    }

    /**
     * @return every object the ledger records in {@code store} and {@code bucket}, keys ascending
     * @throws CliException when the ledger cannot be reached, or has no {@code /api/objects}
     */
    public List<AuditStoreEntry> objects(String store, String bucket) {
        JavaType type = EventCodec.mapper().constructType(Page.class);
        return collect(bucket, after -> http.<Page>get(
                        base.resolve("/api/objects?store=" + encode(store) + "&limit=" + PAGE + "&after=" + encode(after)), type)
                .orElseThrow(() -> new CliException(CliException.FAILED, "this ledger has no /api/objects")));
    }

    /**
     * Follows the {@code next} cursor from {@code ""} until a page says null.
     *
     * @param fetch the page after a key ("" for the first)
     * @return the objects of every page that lie in {@code bucket}, keys ascending
     * @throws CliException when a page repeats its own {@code after} (the ledger would be asked forever)
     */
    static List<AuditStoreEntry> collect(String bucket, Function<String, Page> fetch) {
        List<AuditStoreEntry> entries = new ArrayList<>();
        String after = "";
        do {
            Page page = fetch.apply(after);
            page.objects().stream().filter(o -> bucket.equals(o.bucket()))
                    .forEach(o -> entries.add(new AuditStoreEntry(o.key(), o.bytes(), o.sha256())));
            if (after.equals(page.next())) {
                throw new CliException(CliException.FAILED, "the ledger's /api/objects repeats the page after " + after);
            }
            after = page.next();
        } while (after != null);
        entries.sort(Comparator.comparing(AuditStoreEntry::key));
        return entries;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
