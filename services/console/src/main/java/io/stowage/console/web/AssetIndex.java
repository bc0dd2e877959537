package io.stowage.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.console.client.LedgerApi;
import io.stowage.console.domain.AssetName;
import io.stowage.console.session.Viewer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Pages through the ledger's asset index ({@code GET /api/assets/index}) and groups datasets and runs by name. */
final class AssetIndex {
    /** Pages read at most (1,000 assets each): the console lists up to 20,000 assets. */
    private static final int MAX_PAGES = 20;

    private AssetIndex() {
    }

    /** @return every dataset revision and checkpoint step id the ledger knows, in id order */
    static List<AssetName> names(LedgerApi ledger, Viewer viewer) {
        List<AssetName> out = new ArrayList<>();
        String after = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            JsonNode answer = ledger.assets(viewer.authorization(), after, 1000);
            for (JsonNode a : Answers.iterable(answer.get("assets"))) {
                AssetName.parse(Answers.text(a, "assetId")).ifPresent(out::add);
            }
            after = Answers.text(answer, "next");
            if (after == null) {
                break;
            }
        }
        return out;
    }

    /** @return dataset name to its revisions, both in order */
    static Map<String, List<String>> datasets(List<AssetName> names) {
        Map<String, List<String>> out = new TreeMap<>();
        names.stream().filter(AssetName::dataset).forEach(n -> out.computeIfAbsent(n.first(), k -> new ArrayList<>()).add(n.second()));
        return out;
    }

    /** @return one row per experiment and run with its number of steps */
    static List<Views.RunRow> runs(List<AssetName> names) {
        Map<String, Integer> counts = new TreeMap<>();
        names.stream().filter(n -> !n.dataset()).forEach(n -> counts.merge(n.first() + "/" + n.second(), 1, Integer::sum));
        return counts.entrySet().stream().map(e -> {
            String[] parts = e.getKey().split("/", 2);
            return new Views.RunRow(parts[0], parts[1], e.getValue());
        }).toList();
    }
}
