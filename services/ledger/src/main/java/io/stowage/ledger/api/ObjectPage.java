package io.stowage.ledger.api;

import io.stowage.events.ledger.ObjectEvidence;

import java.util.List;

/**
 * One page of {@code GET /api/objects}: the objects of one store in key order (byte order, as S3 lists them).
 *
 * @param objects at most the requested limit of objects, keys ascending
 * @param next    the key to pass as {@code after} for the next page; null on the last page
 */
public record ObjectPage(List<ObjectEvidence> objects, String next) {

    /**
     * @param rows  up to {@code limit + 1} objects in key order (one more than a page tells whether another follows)
     * @param limit the page size
     * @return the first {@code limit} rows, with {@code next} = the last key on the page when a row follows it
     */
    static ObjectPage of(List<ObjectEvidence> rows, int limit) {
        if (rows.size() <= limit) {
            return new ObjectPage(List.copyOf(rows), null);
        }
        List<ObjectEvidence> page = List.copyOf(rows.subList(0, limit));
        return new ObjectPage(page, page.get(limit - 1).key());
    }
}
