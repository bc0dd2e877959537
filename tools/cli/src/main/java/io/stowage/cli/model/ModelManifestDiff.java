package io.stowage.cli.model;

import io.stowage.events.manifest.MemberEntry;
import io.stowage.events.manifest.ModelManifest;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Names the first difference between a stored model manifest and a local one, in a few words for an error line. */
public final class ModelManifestDiff {
    private ModelManifestDiff() {
    }

    /**
     * @return e.g. {@code "file mdef: sha256 ab12… stored, cd34… here"}, {@code "licence 'MIT' stored, 'BSD' here"},
     *         {@code "file x only in the stored revision"}; {@code "same files, licence and source"} when none is found
     */
    public static String first(ModelManifest stored, ModelManifest local) {
        if (!Objects.equals(stored.license(), local.license())) {
            return "licence '" + stored.license() + "' stored, '" + local.license() + "' here";
        }
        if (!Objects.equals(stored.source(), local.source())) {
            return "source '" + stored.source() + "' stored, '" + local.source() + "' here";
        }
        Map<String, MemberEntry> before = byPath(stored);
        Map<String, MemberEntry> now = byPath(local);
        for (MemberEntry file : before.values()) {
            MemberEntry other = now.get(file.path());
            if (other == null) {
                return "file " + file.path() + " only in the stored revision";
            }
            if (!other.sha256().equals(file.sha256()) || other.bytes() != file.bytes()) {
                return "file " + file.path() + ": " + file.bytes() + " bytes sha256 " + file.sha256() + " stored, "
                        + other.bytes() + " bytes sha256 " + other.sha256() + " here";
            }
        }
        for (String path : now.keySet()) {
            if (!before.containsKey(path)) {
                return "file " + path + " only here";
            }
        }
        return "same files, licence and source";
    }

    private static Map<String, MemberEntry> byPath(ModelManifest manifest) {
        return manifest.files().stream().collect(Collectors.toMap(MemberEntry::path, Function.identity(),
                (a, b) -> a, TreeMap::new));
    }
}
