package io.stowage.shardformat.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The WebDataset sample key rule: consumes a member path, produces its (key, extension). The key is
 * the path up to the first dot of the file name, the extension is the rest of the file name; dots
 * in directory names are left alone ({@code train.v1/0001.jpg} is key {@code train.v1/0001},
 * extension {@code jpg}). A file name without a dot has the empty extension.
 *
 * @param key       directory part plus the file name up to its first dot
 * @param extension the file name after its first dot, possibly empty or holding more dots
 */
public record SampleKey(String key, String extension) {

    /** @param path a '/'-separated member path */
    public static SampleKey of(String path) {
        int nameStart = path.lastIndexOf('/') + 1;
        int dot = path.indexOf('.', nameStart);
        return dot < 0 ? new SampleKey(path, "") : new SampleKey(path.substring(0, dot), path.substring(dot + 1));
    }

    /**
     * Refuses members that a WebDataset reader would merge: two paths whose (key, extension) are equal
     * when compared case-insensitively (lower-cased in {@link Locale#ROOT}, so a Turkish locale does not
     * change the answer). Names that differ only in Unicode normalisation are different and stay apart.
     *
     * @param members the members of the dataset, in any order
     * @throws DatasetInputException naming every colliding pair, in member order
     */
    public static void requireUnique(List<Member> members) {
        Map<String, String> seen = new HashMap<>();
        List<String> collisions = new ArrayList<>();
        for (Member member : members) {
            SampleKey sample = of(member.path());
            String folded = sample.key().toLowerCase(Locale.ROOT) + '\0' + sample.extension().toLowerCase(Locale.ROOT);
            String earlier = seen.putIfAbsent(folded, member.path());
            if (earlier != null) {
                collisions.add("'" + earlier + "' and '" + member.path() + "' (key '" + sample.key()
                        + "', extension '" + sample.extension() + "')");
            }
        }
        if (!collisions.isEmpty()) {
            throw new DatasetInputException("WebDataset sample key collision, compared case-insensitively: "
                    + String.join("; ", collisions));
        }
    }
}
