package io.stowage.events;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The path rule of gate condition 5, shared by the gatekeeper and the provider-adapter so that both
 * refuse the same targets. A target is releasable only when it is absolute and normalised, strictly
 * under a configured volume root, and is neither {@code /}, a protected root (workspace root), a
 * volume root, a home directory ({@code user.home} of the service, {@code /root}, any direct child
 * of {@code /home}) nor an ancestor of any of these. Pure path logic: callers apply it to the path as
 * given and again to its real path, with {@link #withAliases} adding the real paths of the roots.
 *
 * @param protectedRoots {@code stowage.gate.protected-roots}, normalised
 * @param volumeRoots    {@code stowage.gatekeeper.volume-roots} / {@code stowage.provider-adapter.volume-roots};
 *                       empty means every target is refused (fail closed)
 * @param homes          home directories to refuse (the service's {@code user.home} and {@code /root})
 */
public record ReleaseTargetPolicy(List<Path> protectedRoots, List<Path> volumeRoots, List<Path> homes) {

    /** Why a target is refused. @param code a stable code, as in {@link FailedCondition#code()} */
    public record Refusal(String code, String detail) {
    }

    public ReleaseTargetPolicy {
        protectedRoots = protectedRoots.stream().map(Path::normalize).distinct().toList();
        volumeRoots = volumeRoots.stream().map(Path::normalize).distinct().toList();
        homes = homes.stream().map(Path::normalize).distinct().toList();
    }

    /**
     * @param protectedRoots absolute paths (blank entries skipped)
     * @param volumeRoots    absolute paths (blank entries skipped)
     * @param userHome       the service's {@code user.home}, may be null
     * @throws IllegalArgumentException when a root is not absolute
     */
    public static ReleaseTargetPolicy of(List<String> protectedRoots, List<String> volumeRoots, String userHome) {
        List<Path> homes = new ArrayList<>(List.of(Path.of("/root")));
        if (userHome != null && !userHome.isBlank()) {
            homes.add(Path.of(userHome));
        }
        return new ReleaseTargetPolicy(absolute(protectedRoots), absolute(volumeRoots), homes);
    }

    /**
     * @param realPath the real path of a root, empty when it does not exist
     * @return this policy plus the real path of every root, so a root named through a symlink still counts
     */
    public ReleaseTargetPolicy withAliases(Function<Path, Optional<Path>> realPath) {
        return new ReleaseTargetPolicy(plusReal(protectedRoots, realPath), plusReal(volumeRoots, realPath),
                plusReal(homes, realPath));
    }

    /** @return why {@code target} may not be released, or empty when the path rule allows it */
    public Optional<Refusal> refusal(Path target) {
        if (!target.isAbsolute() || !target.normalize().equals(target)) {
            return refuse("not-normalised", target + " is not an absolute, normalised path");
        }
        if (target.getParent() == null) {
            return refuse("protected-root", target + " is the filesystem root");
        }
        if (ancestorOrSelf(target, protectedRoots)) {
            return refuse("protected-root", target + " is a protected (workspace) root or an ancestor of one");
        }
        if (ancestorOrSelf(target, homes) || Path.of("/home").equals(target.getParent())
                || Path.of("/home").equals(target)) {
            return refuse("home-directory", target + " is a home directory or an ancestor of one");
        }
        if (ancestorOrSelf(target, volumeRoots)) {
            return refuse("volume-root", target + " is a volume root or an ancestor of one");
        }
        if (volumeRoots.stream().noneMatch(target::startsWith)) {
            return refuse("outside-volume-roots", target + " is outside every configured volume root "
                    + (volumeRoots.isEmpty() ? "(none configured)" : volumeRoots.toString()));
        }
        return Optional.empty();
    }

    private static boolean ancestorOrSelf(Path target, List<Path> roots) {
        return roots.stream().anyMatch(root -> root.startsWith(target));
    }

    private static Optional<Refusal> refuse(String code, String detail) {
        return Optional.of(new Refusal(code, detail));
    }

    private static List<Path> absolute(List<String> paths) {
        List<Path> result = new ArrayList<>();
        for (String raw : paths) {
            String text = raw.trim();
            if (text.isEmpty()) {
                continue;
            }
            Path path = Path.of(text);
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("not an absolute path: " + text);
            }
            result.add(path);
        }
        return result;
    }

    private static List<Path> plusReal(List<Path> roots, Function<Path, Optional<Path>> realPath) {
        List<Path> all = new ArrayList<>(roots);
        roots.forEach(root -> realPath.apply(root).ifPresent(all::add));
        return all;
    }
}
