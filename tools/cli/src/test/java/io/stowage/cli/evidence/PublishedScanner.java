package io.stowage.cli.evidence;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Test helper: searches every file under a directory for values that must never be published and names each hit
 * ({@code file: what}), never the value. Literals match case-insensitively; a port matches as {@code :PORT} not
 * followed by another digit (a bare number would also match a byte count or a hash by chance).
 */
public final class PublishedScanner {
    private final Map<String, Pattern> needles = new LinkedHashMap<>();

    /** Adds a literal value (a key, a token, a bucket name, a host:port, a parameter name). */
    public PublishedScanner literal(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("nothing to search for: " + what);
        }
        needles.put(what, Pattern.compile(Pattern.quote(value), Pattern.CASE_INSENSITIVE));
        return this;
    }

    /** Adds a port, searched as {@code :PORT}. */
    public PublishedScanner port(String what, int port) {
        needles.put(what, Pattern.compile(":" + port + "(?!\\d)"));
        return this;
    }

    /** @return how many values are searched for */
    public int size() {
        return needles.size();
    }

    /** @return {@code file: what} for every needle found in every regular file under {@code dir} (names of files too) */
    public List<String> findings(Path dir) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String text = dir.relativize(file) + "\n" + Files.readString(file, StandardCharsets.UTF_8);
                needles.forEach((what, pattern) -> {
                    if (pattern.matcher(text).find()) {
                        found.add(dir.relativize(file) + ": " + what);
                    }
                });
            }
        }
        return found;
    }
}
