package io.stowage.shardformat;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Compares the members {@link ShardReader} streams with the member manifest: name, size and SHA-256 of each. */
final class ManifestCheck implements MemberVisitor {
    private final Map<String, MemberEntry> expected = new LinkedHashMap<>();
    private final Set<String> seen = new HashSet<>();
    private final List<ShardProblem> problems = new ArrayList<>();
    private final byte[] buffer = new byte[1 << 20];
    private String current;
    private int membersRead;
    private long memberBytes;

    ManifestCheck(List<MemberEntry> manifest) {
        for (MemberEntry entry : manifest) {
            expected.put(entry.path(), entry);
        }
    }

    @Override
    public void member(TarMember member, InputStream content) throws IOException {
        membersRead++;
        if (!member.regularFile()) {
            problems.add(new ShardProblem(ShardProblem.Kind.NOT_A_FILE, member.name(), "not a regular file"));
            return;
        }
        MessageDigest digest = Sha256.newDigest();
        long bytes = 0;
        current = member.name();
        for (int n = content.read(buffer); n >= 0; n = content.read(buffer)) {
            digest.update(buffer, 0, n);
            bytes += n;
            memberBytes += n;
        }
        current = null;
        String sha256 = Sha256.hex(digest);
        if (!seen.add(member.name())) {
            problems.add(new ShardProblem(ShardProblem.Kind.DUPLICATE_MEMBER, member.name(), "appears twice in the tar"));
            return;
        }
        MemberEntry entry = expected.get(member.name());
        if (entry == null) {
            problems.add(new ShardProblem(ShardProblem.Kind.EXTRA_MEMBER, member.name(), bytes + " bytes, not in the member manifest"));
        } else if (entry.bytes() != bytes) {
            problems.add(new ShardProblem(ShardProblem.Kind.SIZE_MISMATCH, member.name(), "expected " + entry.bytes() + " bytes, read " + bytes));
        } else if (!entry.sha256().equals(sha256)) {
            problems.add(new ShardProblem(ShardProblem.Kind.SHA256_MISMATCH, member.name(), "expected sha256 " + entry.sha256() + ", read " + sha256));
        }
    }

    /** @return true (and the problem recorded) when a manifest entry's path breaks the {@link MemberName} rule */
    boolean unsafeManifestName() {
        for (String path : expected.keySet()) {
            Optional<String> problem = MemberName.problem(path);
            if (problem.isPresent()) {
                problems.add(new ShardProblem(ShardProblem.Kind.UNSAFE_MEMBER_NAME, path,
                        "member manifest path " + problem.get()));
                expected.clear();
                return true;
            }
        }
        return false;
    }

    /** Records the refused member name; the read stopped there, before the member's content. */
    void unsafeName(UnsafeMemberNameException e) {
        seen.add(e.member());
        problems.add(new ShardProblem(ShardProblem.Kind.UNSAFE_MEMBER_NAME, e.member(), "tar member name " + e.reason()));
    }

    /** Records the broken stream; when it broke inside a member's data, the problem names that member. */
    void streamBroke(ShardStreamException e) {
        if (current != null) {
            seen.add(current);
        }
        problems.add(new ShardProblem(ShardProblem.Kind.valueOf(e.kind().name()), current, e.detail()));
    }

    ShardReport report(ShardReader.ShardDigest digest, String expectedSha256) {
        for (MemberEntry entry : expected.values()) {
            if (!seen.contains(entry.path())) {
                problems.add(new ShardProblem(ShardProblem.Kind.MISSING_MEMBER, entry.path(), "in the member manifest, not in the tar"));
            }
        }
        if (digest != null && expectedSha256 != null && !expectedSha256.equals(digest.sha256())) {
            problems.add(new ShardProblem(ShardProblem.Kind.SHARD_SHA256_MISMATCH, null,
                    "expected sha256 " + expectedSha256 + ", read " + digest.sha256() + " (" + digest.bytes() + " bytes)"));
        }
        return new ShardReport(digest == null ? -1 : digest.bytes(), digest == null ? null : digest.sha256(),
                membersRead, memberBytes, problems);
    }
}
