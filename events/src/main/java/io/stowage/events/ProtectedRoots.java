package io.stowage.events;

import java.nio.file.Path;
import java.util.List;

/**
 * The directories that can never be released themselves ({@code stowage.gate.protected-roots}:
 * volume roots, the workspace root) plus {@code /}; a path is protected when it is one of them
 * or an ancestor of one. Part of the contract: the gatekeeper applies it as condition 5 and the
 * provider-adapter re-checks it before deleting, so both must use this one rule.
 */
public record ProtectedRoots(List<Path> roots) {

    /** @param roots absolute paths; normalised here */
    public ProtectedRoots {
        roots = roots.stream().map(Path::normalize).toList();
    }

    /** @return roots parsed from a list of absolute paths (e.g. the comma-separated config value); blanks are skipped */
    public static ProtectedRoots parse(List<String> paths) {
        return new ProtectedRoots(paths.stream().map(String::trim).filter(s -> !s.isEmpty()).map(Path::of).toList());
    }

    /** @return true when {@code path} is {@code /}, a protected root, or an ancestor of one */
    public boolean protects(Path path) {
        Path normal = path.normalize();
        if (normal.getParent() == null) {
            return true;
        }
        return roots.stream().anyMatch(root -> root.startsWith(normal));
    }
}
