package io.stowage.shardformat;

import io.stowage.events.Sha256;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Random trees of members, written as the shard builder writes them, read back equal, whatever the frame cuts. */
class ShardRoundTripProperties {
    private final ShardReader reader = new ShardReader();

    @Property(tries = 60)
    void randomTreesReadBackEqualAndVerify(@ForAll("trees") Map<String, byte[]> members,
                                           @ForAll @IntRange(min = 0, max = 3) int extraFrames,
                                           @ForAll long seed) throws IOException {
        byte[] tar = TestShards.tar(members);
        long[] cuts = new java.util.Random(seed).longs(extraFrames, 1, tar.length).sorted().distinct().toArray();
        byte[] shard = TestShards.zstdFrames(tar, cuts);

        Map<String, byte[]> read = new LinkedHashMap<>();
        reader.read(new ByteArrayInputStream(shard), (member, content) -> read.put(member.name(), content.readAllBytes()));
        assertThat(read.keySet()).containsExactlyElementsOf(members.keySet());
        members.forEach((name, bytes) -> assertThat(Arrays.equals(read.get(name), bytes)).as(name).isTrue());

        ShardReport report = reader.verify(new ByteArrayInputStream(shard), TestShards.manifest(members), Sha256.of(shard));
        assertThat(report.problems()).isEmpty();
        assertThat(report.memberBytes()).isEqualTo(members.values().stream().mapToLong(b -> b.length).sum());
    }

    @Property(tries = 40)
    void aRandomCutIsAlwaysTruncated(@ForAll("trees") Map<String, byte[]> members, @ForAll long seed) throws IOException {
        byte[] shard = TestShards.zstdFrames(TestShards.tar(members), 1 + Math.floorMod(seed, 100));
        int cut = (int) Math.floorMod(seed, (long) shard.length);
        ShardReport report = reader.verify(new ByteArrayInputStream(shard, 0, cut), TestShards.manifest(members), null);
        assertThat(report.problems()).extracting(ShardProblem::kind).contains(ShardProblem.Kind.TRUNCATED);
    }

    @Provide
    Arbitrary<Map<String, byte[]>> trees() {
        Arbitrary<String> segment = Arbitraries.strings().withChars("abcXYZ019._- éüßé日本")
                .ofMinLength(1).ofMaxLength(40).filter(s -> !s.equals(".") && !s.equals(".."));
        Arbitrary<String> path = segment.list().ofMinSize(1).ofMaxSize(6).map(parts -> String.join("/", parts));
        Arbitrary<byte[]> content = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(3000),
                Arbitraries.integers().between(0, 2048).map(n -> new byte[n]));
        return Combinators.combine(path, content).as(Map::entry).list().ofMinSize(1).ofMaxSize(12)
                .map(ShardRoundTripProperties::distinctNames)
                .filter(tree -> !tree.isEmpty() && noNameIsADirectoryOfAnother(tree.keySet().stream().toList()));
    }

    private static Map<String, byte[]> distinctNames(List<Map.Entry<String, byte[]>> entries) {
        Map<String, byte[]> tree = new LinkedHashMap<>();
        entries.forEach(e -> tree.putIfAbsent(e.getKey(), e.getValue()));
        return tree;
    }

    private static boolean noNameIsADirectoryOfAnother(List<String> names) {
        return names.stream().noneMatch(a -> names.stream().anyMatch(b -> b.startsWith(a + "/")));
    }
}
