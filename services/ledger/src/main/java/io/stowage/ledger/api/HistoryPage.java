package io.stowage.ledger.api;

import io.stowage.ledger.domain.HistoryEntry;

import java.util.List;

/**
 * One page of the history of a correlation id (every event of one flow, e.g. a release request and the gate
 * decision and release it caused), in chain (seq) order.
 *
 * @param events at most the requested limit
 * @param next   the seq to pass as {@code afterSeq} for the next page; null on the last page
 */
public record HistoryPage(String correlationId, List<HistoryEntry> events, Long next) {

    /** @param rows up to {@code limit + 1} rows; @return the first {@code limit}, with {@code next} when a row follows */
    static HistoryPage of(String correlationId, List<HistoryEntry> rows, int limit) {
        if (rows.size() <= limit) {
            return new HistoryPage(correlationId, List.copyOf(rows), null);
        }
        List<HistoryEntry> page = List.copyOf(rows.subList(0, limit));
        return new HistoryPage(correlationId, page, page.get(limit - 1).seq());
    }
}
