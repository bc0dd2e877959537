package io.stowage.cli.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The container mount contract every training and evaluation container follows, checked against a list of
 * {@link Mount}s; produces a {@link LintProblem} for each mount that breaks it. Only mounts at (or under) the six
 * contract paths are judged; a contract path that is not mounted is no problem (not every container needs all six).
 *
 * <table>
 * <caption>The contract</caption>
 * <tr><th>path</th><th>mounted</th><th>meaning</th></tr>
 * <tr><td>/workspace</td><td>read-only</td><td>the source and configuration of one commit</td></tr>
 * <tr><td>/datasets</td><td>read-only</td><td>data chosen by a manifest and verified file by file</td></tr>
 * <tr><td>/checkpoints</td><td>written</td><td>steps written to a temporary name and renamed into place</td></tr>
 * <tr><td>/artifacts</td><td>written</td><td>logs, metrics, samples, the result manifest</td></tr>
 * <tr><td>/cache</td><td>written, discardable</td><td>pip/HF/compiler caches; never evidence, so never the same
 * source as /checkpoints or /artifacts</td></tr>
 * <tr><td>/secrets</td><td>read-only</td><td>runtime secrets; never shared with another mount</td></tr>
 * </table>
 */
public final class MountContract {
    /** Contract path to whether it must be read-only. */
    static final Map<String, Boolean> READ_ONLY = Map.of("/workspace", true, "/datasets", true, "/checkpoints", false,
            "/artifacts", false, "/cache", false, "/secrets", true);
    private static final List<String> EVIDENCE = List.of("/checkpoints", "/artifacts");

    private MountContract() {
    }

    /** @return every breach of the contract among {@code mounts}, in their order */
    public static List<LintProblem> check(List<Mount> mounts) {
        List<LintProblem> problems = new ArrayList<>();
        for (Mount mount : mounts) {
            String path = contractPath(mount.target());
            if (path == null) {
                continue;
            }
            boolean readOnly = READ_ONLY.get(path);
            if (readOnly && !mount.readOnly()) {
                problems.add(new LintProblem(mount.name(), "mounted read-write", path + " mounted read-only (:ro)"));
            } else if (!readOnly && mount.readOnly()) {
                problems.add(new LintProblem(mount.name(), "mounted read-only", path + " mounted writable"));
            }
            sharing(mount, path, mounts, problems);
        }
        return List.copyOf(problems);
    }

    private static void sharing(Mount mount, String path, List<Mount> mounts, List<LintProblem> problems) {
        if (mount.source() == null || !(path.equals("/cache") || path.equals("/secrets"))) {
            return;
        }
        for (Mount other : mounts) {
            String otherPath = contractPath(other.target());
            boolean clash = other != mount && Objects.equals(other.container(), mount.container())
                    && mount.source().equals(other.source())
                    && (path.equals("/secrets") || (otherPath != null && EVIDENCE.contains(otherPath)));
            if (clash) {
                problems.add(new LintProblem(mount.name(), "shares its source " + mount.source() + " with " + other.target(),
                        path.equals("/cache") ? "a discardable /cache of its own: a cache is never evidence"
                                : "a /secrets source mounted nowhere else"));
            }
        }
    }

    /** @return the contract path {@code target} is (or lies under), or null when it is none of them */
    static String contractPath(String target) {
        for (String path : READ_ONLY.keySet()) {
            if (under(target, path)) {
                return path;
            }
        }
        return null;
    }

    /** @return true when {@code path} is {@code root} or lies under it ({@code /datasets2} is not under {@code /datasets}) */
    static boolean under(String path, String root) {
        String p = java.nio.file.Path.of(path).normalize().toString();
        return p.equals(root) || p.startsWith(root + "/");
    }
}
