package io.stowage.cli.model;

import io.stowage.events.manifest.MemberEntry;

import java.net.URI;
import java.util.List;
import java.util.TreeSet;

/**
 * The shell recipe a receiver runs to download a shared model revision and check it: one {@code curl} per file into
 * its path, then {@code sha256sum -c} against the SHA-256 of every file. Paths follow the key name rule (ASCII
 * letters, digits, {@code . _ -} and {@code /}) and presigned URLs hold no single quote, so single quotes suffice.
 */
public final class ShareRecipe {
    private ShareRecipe() {
    }

    /** One shared file: its path in the revision, bytes, SHA-256 and presigned GET URL. */
    public record SharedFile(MemberEntry file, URI url) {
    }

    /**
     * @param dir the directory the receiver downloads into, e.g. {@code en-us-r1}
     * @return a bash script: mkdir, cd, one curl per file, the SHA256SUMS file, {@code sha256sum -c}
     */
    public static String of(String dir, List<SharedFile> files) {
        StringBuilder s = new StringBuilder();
        s.append("set -euo pipefail\n");
        s.append("mkdir -p '").append(dir).append("' && cd '").append(dir).append("'\n");
        TreeSet<String> parents = new TreeSet<>();
        for (SharedFile f : files) {
            int slash = f.file().path().lastIndexOf('/');
            if (slash > 0) {
                parents.add(f.file().path().substring(0, slash));
            }
        }
        parents.forEach(p -> s.append("mkdir -p '").append(p).append("'\n"));
        for (SharedFile f : files) {
            s.append("curl -fsS -o '").append(f.file().path()).append("' '").append(f.url()).append("'\n");
        }
        s.append("cat > SHA256SUMS <<'SUMS'\n");
        for (SharedFile f : files) {
            s.append(f.file().sha256()).append("  ").append(f.file().path()).append('\n');
        }
        s.append("SUMS\n");
        s.append("sha256sum -c SHA256SUMS\n");
        return s.toString();
    }
}
