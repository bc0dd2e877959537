package io.stowage.shardformat.write;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardPlannerTest {

    private static Member member(String path, long bytes) {
        return new Member(path, Path.of("/data", path), bytes, FileTime.fromMillis(0));
    }

    private static List<List<String>> paths(List<ShardPlan> plans) {
        return plans.stream().map(p -> p.members().stream().map(Member::path).toList()).toList();
    }

    @Test
    void membersThatExactlyFillTheTargetShareOneShard() {
        List<ShardPlan> plans = new ShardPlanner(10).plan(List.of(member("a", 4), member("b", 6), member("c", 1)));

        assertThat(paths(plans)).containsExactly(List.of("a", "b"), List.of("c"));
        assertThat(plans).extracting(ShardPlan::index).containsExactly(0, 1);
        assertThat(plans).extracting(ShardPlan::memberBytes).containsExactly(10L, 1L);
    }

    @Test
    void oneByteOverTheTargetStartsANewShard() {
        List<ShardPlan> plans = new ShardPlanner(10).plan(List.of(member("a", 4), member("b", 7)));

        assertThat(paths(plans)).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void aMemberBiggerThanTheTargetGetsAShardOfItsOwn() {
        List<ShardPlan> plans = new ShardPlanner(10)
                .plan(List.of(member("a", 3), member("big", 25), member("c", 2), member("d", 8)));

        assertThat(paths(plans)).containsExactly(List.of("a"), List.of("big"), List.of("c", "d"));
        assertThat(plans.get(1).memberBytes()).isEqualTo(25);
    }

    @Test
    void keepsMemberOrderAndEmptyFilesAcrossShards() {
        List<Member> members = List.of(member("0", 5), member("1", 0), member("2", 5), member("3", 0), member("4", 1));
        List<ShardPlan> plans = new ShardPlanner(5).plan(members);

        assertThat(paths(plans)).containsExactly(List.of("0", "1"), List.of("2", "3"), List.of("4"));
        assertThat(plans.stream().flatMap(p -> p.members().stream()).toList()).isEqualTo(members);
    }

    @Test
    void refusesAnEmptyDirectory() {
        assertThatThrownBy(() -> new ShardPlanner(10).plan(List.of()))
                .isInstanceOf(DatasetInputException.class)
                .hasMessageContaining("no files");
    }

    @Test
    void refusesANonPositiveTarget() {
        assertThatThrownBy(() -> new ShardPlanner(0))
                .isInstanceOf(DatasetInputException.class)
                .hasMessageContaining("positive");
    }
}
