package io.stowage.ledger.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The directory a release or evidence query is about, and which asset local roots touch it: a
 * root equal to the directory, lying under it, or containing it (gate: "every asset touching P").
 */
public final class EvidenceScope {
    private final String path;

    private EvidenceScope(String path) {
        this.path = path;
    }

    /**
     * @param path an absolute directory path; trailing slashes are ignored
     * @throws IllegalArgumentException when the path is missing or not absolute
     */
    public static EvidenceScope of(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must be absolute: " + path);
        }
        String normalised = path;
        while (normalised.length() > 1 && normalised.endsWith("/")) {
            normalised = normalised.substring(0, normalised.length() - 1);
        }
        return new EvidenceScope(normalised);
    }

    /** @return the normalised absolute path */
    public String path() {
        return path;
    }

    /** @return the prefix every path strictly under this directory starts with ("/" for the root) */
    public String descendantPrefix() {
        return path.equals("/") ? "/" : path + "/";
    }

    /** @return every proper ancestor of the path, "/" first; empty for "/" */
    public List<String> ancestors() {
        List<String> ancestors = new ArrayList<>();
        int slash = path.indexOf('/', 1);
        if (path.length() > 1) {
            ancestors.add("/");
        }
        while (slash > 0) {
            ancestors.add(path.substring(0, slash));
            slash = path.indexOf('/', slash + 1);
        }
        return ancestors;
    }

    /** @return true when {@code localRoot} equals the path, lies under it, or contains it */
    public boolean touches(String localRoot) {
        if (localRoot == null || !localRoot.startsWith("/")) {
            return false;
        }
        String root = of(localRoot).path;
        return root.equals(path) || root.startsWith(descendantPrefix()) || ancestors().contains(root);
    }
}
