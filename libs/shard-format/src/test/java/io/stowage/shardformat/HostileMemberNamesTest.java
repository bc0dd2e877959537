package io.stowage.shardformat;

import io.stowage.events.Sha256;
import io.stowage.events.manifest.MemberEntry;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Crafted shards whose member names try to leave the directory they are unpacked into, or to mean another name
 * than they spell: each is refused, naming the member, by {@link ShardReader#verify} (what {@code dataset verify}
 * runs), by {@link ShardReader#read} before the visitor sees the member (what {@code dataset fetch --extract} runs),
 * and in the member manifest.
 */
class HostileMemberNamesTest {
    private static final byte[] CONTENT = "not yours\n".getBytes(StandardCharsets.UTF_8);
    private final ShardReader reader = new ShardReader();

    @ParameterizedTest
    @ValueSource(strings = {"../x.txt", "/abs.txt", "a/../../y.txt", "..././z.txt", "./a", "a//b", "a/./b", "a\\b",
            "..\\..\\w.txt", "/etc/cron.d/x"})
    void aShardWithTheNameAndAManifestThatAgreesIsNotGood(String name) throws IOException {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put("ok/0001.txt", CONTENT);
        members.put(name, CONTENT);
        byte[] shard = TestShards.zstdFrames(TestShards.tar(members));

        ShardReport report = reader.verify(new ByteArrayInputStream(shard), TestShards.manifest(members), Sha256.of(shard));

        assertThat(report.problems()).extracting(ShardProblem::kind, ShardProblem::member)
                .contains(org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.UNSAFE_MEMBER_NAME, name));
        assertReadStopsBefore(shard, name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x.txt", "/abs.txt", "a/../../y.txt", "..././z.txt", "a//b", "a\\b"})
    void theTarAloneIsRefusedWhenTheManifestIsClean(String name) throws IOException {
        byte[] shard = TestShards.zstdFrames(TestShards.tar(Map.of(name, CONTENT)));
        List<MemberEntry> manifest = List.of(new MemberEntry("x.txt", CONTENT.length, Sha256.of(CONTENT)));

        ShardReport report = reader.verify(new ByteArrayInputStream(shard), manifest, null);

        assertThat(report.problems().get(0).kind()).isEqualTo(ShardProblem.Kind.UNSAFE_MEMBER_NAME);
        assertThat(report.problems().get(0).member()).isEqualTo(name);
        assertThat(report.problems().get(0).toString()).contains(name);
    }

    @Test
    void anAbsoluteLongPaxNameIsRefusedThoughCommonsCompressStripsItsSlash() throws IOException {
        String name = "/" + "deep/".repeat(30) + "x.txt";
        byte[] shard = TestShards.zstdFrames(TestShards.tar(Map.of(name, CONTENT)));
        String stripped = name.substring(1);

        ShardReport report = reader.verify(new ByteArrayInputStream(shard),
                List.of(new MemberEntry(stripped, CONTENT.length, Sha256.of(CONTENT))), null);

        assertThat(report.problems().get(0).kind()).isEqualTo(ShardProblem.Kind.UNSAFE_MEMBER_NAME);
        assertThat(report.problems().get(0).member()).isEqualTo(name);
        assertThat(report.problems().get(0).detail()).contains("is absolute");
    }

    @Test
    void craftedHeadersCannotSmuggleAName() throws IOException {
        assertRefused(new CraftedTar().paxPath('x', "/etc/passwd").file("ok.txt", CONTENT), "/etc/passwd", "is absolute");
        assertRefused(new CraftedTar().paxPath('x', "ok\0/../../x").file("ok.txt", CONTENT), "ok\0/../../x", "holds a NUL");
        assertRefused(new CraftedTar().gnuLongName("/abs.txt").file("ok.txt", CONTENT), "/abs.txt", "is absolute");
        assertRefused(new CraftedTar().paxPath('g', "../global.txt").file("ok.txt", CONTENT), "../global.txt", "has a .. segment");
        assertRefused(new CraftedTar().file("ok.txt", CONTENT).paxPath('g', "/later.txt").file("b.txt", CONTENT),
                "/later.txt", "is absolute");
    }

    @Test
    void aDuplicatedNameIsRefused() throws IOException {
        byte[] shard = TestShards.zstdFrames(new CraftedTar().file("a.txt", CONTENT).file("a.txt", CONTENT).finish());
        ShardReport report = reader.verify(new ByteArrayInputStream(shard),
                List.of(new MemberEntry("a.txt", CONTENT.length, Sha256.of(CONTENT))), null);
        assertThat(report.problems()).extracting(ShardProblem::kind, ShardProblem::member)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(ShardProblem.Kind.DUPLICATE_MEMBER, "a.txt"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x.txt", "/abs.txt", "a/../../y.txt", "..././z.txt", "./a", "a//b", "a\\b"})
    void theMemberManifestRefusesTheNameNamingIt(String name) {
        String line = "{\"path\":\"" + name.replace("\\", "\\\\") + "\",\"bytes\":1,\"sha256\":\"" + "a".repeat(64) + "\"}\n";
        MemberManifestException e = catchThrowableOfType(MemberManifestException.class, () ->
                MemberManifest.read(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), "m.members.jsonl"));
        assertThat(e.getMessage()).startsWith("m.members.jsonl line 1: path \"" + name + "\" ");
    }

    @Test
    void theMemberManifestRefusesANul() {
        String line = "{\"path\":\"a\\u0000b\",\"bytes\":1,\"sha256\":\"" + "a".repeat(64) + "\"}\n";
        MemberManifestException e = catchThrowableOfType(MemberManifestException.class, () ->
                MemberManifest.read(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), "m"));
        assertThat(e.getMessage()).isEqualTo("m line 1: path \"a\\u0000b\" holds a NUL");
    }

    @Property(tries = 200)
    void aLegalRandomNameIsAcceptedInTheTarAndTheManifest(@ForAll("legalNames") String name) throws IOException {
        assertThat(MemberName.problem(name)).isEmpty();
        Map<String, byte[]> members = Map.of(name, CONTENT);
        byte[] shard = TestShards.zstdFrames(TestShards.tar(members));
        assertThat(reader.verify(new ByteArrayInputStream(shard), TestShards.manifest(members), Sha256.of(shard))
                .problems()).isEmpty();
        String line = new String(io.stowage.events.EventCodec.mapper().writeValueAsBytes(
                new MemberEntry(name, 1, "a".repeat(64))), StandardCharsets.UTF_8) + "\n";
        assertThat(MemberManifest.read(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), "m"))
                .extracting(MemberEntry::path).containsExactly(name);
    }

    @Provide
    Arbitrary<String> legalNames() {
        Arbitrary<String> segment = Arbitraries.oneOf(
                Arbitraries.strings().withChars("abcXYZ019._- ~:é日").ofMinLength(1).ofMaxLength(30),
                Arbitraries.strings().all().ofMinLength(1).ofMaxLength(12))
                .filter(s -> !s.equals(".") && !s.equals("..") && s.indexOf('/') < 0 && s.indexOf('\\') < 0
                        && s.indexOf('\0') < 0
                        && StandardCharsets.UTF_8.newEncoder().canEncode(s));
        return segment.list().ofMinSize(1).ofMaxSize(8).map(parts -> String.join("/", parts));
    }

    private void assertRefused(CraftedTar tar, String member, String reason) throws IOException {
        byte[] shard = TestShards.zstdFrames(tar.finish());
        ShardReport report = reader.verify(new ByteArrayInputStream(shard), List.of(), null);
        assertThat(report.problems()).extracting(ShardProblem::kind).contains(ShardProblem.Kind.UNSAFE_MEMBER_NAME);
        ShardProblem problem = report.problems().stream()
                .filter(p -> p.kind() == ShardProblem.Kind.UNSAFE_MEMBER_NAME).findFirst().orElseThrow();
        assertThat(problem.member()).isEqualTo(member);
        assertThat(problem.detail()).contains(reason);
        assertReadStopsBefore(shard, member);
    }

    private void assertReadStopsBefore(byte[] shard, String name) {
        List<String> visited = new ArrayList<>();
        UnsafeMemberNameException e = catchThrowableOfType(UnsafeMemberNameException.class, () ->
                reader.read(new ByteArrayInputStream(shard), (member, content) -> visited.add(member.name())));
        assertThat(e).isNotNull();
        assertThat(e.member()).isEqualTo(name);
        assertThat(visited).doesNotContain(name, name.startsWith("/") ? name.substring(1) : name);
    }
}
