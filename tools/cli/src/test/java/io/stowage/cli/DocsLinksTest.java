package io.stowage.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation's references resolve, read from the checkout's files (no build output, no sample data): every
 * relative Markdown link of every {@code .md} file names an existing file or folder (and, with {@code #anchor}, an
 * existing heading of that page); every repository path in inline code ({@code `libs/prefetch/`}) exists, or
 * exists with {@code .java} appended (a class named by its path); and every {@code docs/….md} that a Markdown,
 * Java, pom, properties, YAML or shell file names exists. Placeholders ({@code <…>}, {@code *}, {@code …}),
 * build output ({@code target/}) and files the reader creates ({@code compose/.env}) are not checked.
 */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("(?<!!)\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern DOC_PATH = Pattern.compile("(?<![\\w/.-])(docs/[\\w./-]*\\.md)");
    private static final Pattern TOP_FOLDER = Pattern.compile(
            "^(events|libs|services|tools|build-support|compose|examples|docs)/.*");
    private static final Pattern PLACEHOLDER = Pattern.compile("[<>*{}$…\\s|]|\\.\\.\\.");
    private static final Pattern SOURCE = Pattern.compile(".*\\.(java|properties|xml|sh|ya?ml|py|example|txt)$");
    private static final Set<String> CREATED_BY_READER = Set.of("compose/.env");

    private static Path repo;
    private static List<Path> markdown;
    private static List<Path> sources;

    @BeforeAll
    static void findFiles() throws IOException {
        repo = Repo.root();
        List<Path> files = checkoutFiles();
        markdown = files.stream().filter(f -> f.toString().endsWith(".md")).toList();
        sources = files.stream().filter(f -> SOURCE.matcher(f.toString()).matches()).toList();
    }

    @Test
    void everyRelativeLinkNamesAnExistingFileAndHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : markdown) {
            List<String> lines = proseLines(file);
            for (int i = 0; i < lines.size(); i++) {
                for (Matcher m = LINK.matcher(lines.get(i)); m.find(); checked++) {
                    String problem = linkProblem(file, m.group(1));
                    if (problem != null) {
                        broken.add(where(file, i) + problem);
                    }
                }
            }
        }
        assertThat(checked).as("links checked").isGreaterThan(30);
        assertThat(broken).isEmpty();
    }

    @Test
    void everyRepositoryPathInInlineCodeExists() throws IOException {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path file : markdown) {
            List<String> lines = proseLines(file);
            for (int i = 0; i < lines.size(); i++) {
                for (Matcher m = INLINE_CODE.matcher(lines.get(i)); m.find(); ) {
                    String path = m.group(1).strip().replaceAll("[.,;:]+$", "");
                    if (!TOP_FOLDER.matcher(path).matches() || PLACEHOLDER.matcher(path).find() || generated(path)) {
                        continue;
                    }
                    checked++;
                    if (!Files.exists(repo.resolve(path)) && !Files.exists(repo.resolve(path + ".java"))) {
                        missing.add(where(file, i) + "`" + path + "`");
                    }
                }
            }
        }
        assertThat(checked).as("paths checked").isGreaterThan(100);
        assertThat(missing).isEmpty();
    }

    @Test
    void everyDocsPageNamedInDocsCodeOrConfigurationExists() throws IOException {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path file : Stream.concat(markdown.stream(), sources.stream()).toList()) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
            for (int i = 0; i < lines.size(); i++) {
                for (Matcher m = DOC_PATH.matcher(lines.get(i)); m.find(); checked++) {
                    if (!Files.isRegularFile(repo.resolve(m.group(1)))) {
                        missing.add(where(file, i) + m.group(1));
                    }
                }
            }
        }
        assertThat(checked).as("docs paths checked").isGreaterThan(50);
        assertThat(missing).isEmpty();
    }

    /** @return null when {@code target} (relative to {@code file}, optionally with {@code #anchor}) resolves */
    private static String linkProblem(Path file, String target) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // https:, mailto:: not ours to check offline
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!Files.exists(resolved)) {
            return "link to a missing file: " + target;
        }
        if (hash >= 0 && resolved.toString().endsWith(".md") && !anchors(resolved).contains(target.substring(hash + 1))) {
            return "link to a missing heading: " + target;
        }
        return null;
    }

    /** @return the GitHub anchors of the page's headings: lower case, punctuation dropped, spaces as '-' */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        for (String line : proseLines(page)) {
            if (line.startsWith("#")) {
                anchors.add(line.replaceFirst("^#+", "").strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    /** @return the page's lines with fenced code blocks blanked (their text is a program's, not a reference) */
    private static List<String> proseLines(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            boolean fence = lines.get(i).strip().startsWith("```");
            if (fence || fenced) {
                lines.set(i, "");
            }
            fenced ^= fence;
        }
        return lines;
    }

    private static boolean generated(String path) {
        return path.contains("/target/") || path.endsWith("/target") || CREATED_BY_READER.contains(path);
    }

    private static String where(Path file, int index) {
        return repo.relativize(file) + ":" + (index + 1) + ": ";
    }

    /** @return the checkout's files, without build output, hidden folders and the sample data */
    private static List<Path> checkoutFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(repo, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skipped = !dir.equals(repo) && (name.equals("target") || name.equals("node_modules")
                        || name.startsWith(".") || dir.equals(repo.resolve("examples/samples")));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile()) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }
}
