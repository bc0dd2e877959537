package io.stowage.shardbuilder.domain;

import io.stowage.events.EventCodec;
import io.stowage.events.Sha256;
import io.stowage.events.manifest.BaselineManifest;
import io.stowage.events.manifest.MemberEntry;
import io.stowage.shardformat.write.DatasetInputException;
import io.stowage.shardformat.write.DatasetSharder;
import io.stowage.shardformat.write.SealedDataset;
import io.stowage.shardformat.write.ShardFiles;
import io.stowage.shardformat.write.ShardRequest;
import io.stowage.shardformat.write.ShardWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hash-bound baseline archives: one tar.zst of a fixed tree at its pinned SHA-256 and key, with exact member
 * manifest lines; the same bytes as a dataset shard of the same files; deterministic; a dry run keeps nothing.
 */
class BaselineArchiverTest {
    /** SHA-256 of the archive of {@link #baseline} (mtime 0, zstd level 3), pinned. */
    static final String PINNED_ARCHIVE = "388f3940f4e8e61c569070ead97d6ae9d8d3d73dc5c7de55d8b6a8646dc124e1";

    @TempDir
    Path tmp;

    final BaselineArchiver archiver = new BaselineArchiver(new ShardWriter(0));

    /** A small "finished result set": eval results, a config and a 0-byte marker, in nested directories. */
    static Path baseline(Path dir) throws IOException {
        write(dir.resolve("eval/results.json"), "{\"wer\": 0.125, \"cer\": 0.04}\n");
        write(dir.resolve("eval/samples/0001.txt"), "the quick brown fox\n");
        write(dir.resolve("config.yaml"), "model: whisper-tiny\nlr: 0.0003\n");
        write(dir.resolve("DONE"), "");
        return dir;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String sha(String text) {
        return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
    }

    private BaselineRequest request(Path dir, Path staging) {
        return new BaselineRequest(dir, "whisper-tiny", "baseline-1", staging);
    }

    @Test
    void aFixedTreeGivesOneArchiveAtItsPinnedKeyWithExactMemberLines() throws IOException {
        Path dir = baseline(tmp.resolve("results"));
        Path staging = tmp.resolve("staging");

        ArchivedBaseline archived = archiver.archive(request(dir, staging));

        BaselineManifest m = archived.manifest();
        assertThat(m.sha256()).isEqualTo(PINNED_ARCHIVE);
        assertThat(m.key()).isEqualTo("archives/baselines/whisper-tiny/baseline-1/" + PINNED_ARCHIVE + ".tar.zst");
        assertThat(m.membersKey()).isEqualTo("archives/baselines/whisper-tiny/baseline-1/" + PINNED_ARCHIVE + ".members.jsonl");
        // the local layout mirrors the keys
        assertThat(archived.archive().path()).isEqualTo(staging.resolve(m.key()));
        assertThat(archived.members().path()).isEqualTo(staging.resolve(m.membersKey()));
        assertThat(Sha256.of(archived.archive().path())).isEqualTo(PINNED_ARCHIVE);
        assertThat(archived.archive().bytes()).isEqualTo(Files.size(archived.archive().path())).isEqualTo(m.bytes());

        // member manifest: one JSON line per file, sorted by path, the same format as a dataset shard's
        String expectedLines = String.join("", List.of(
                "{\"path\":\"DONE\",\"bytes\":0,\"sha256\":\"" + sha("") + "\"}\n",
                "{\"path\":\"config.yaml\",\"bytes\":31,\"sha256\":\"" + sha("model: whisper-tiny\nlr: 0.0003\n") + "\"}\n",
                "{\"path\":\"eval/results.json\",\"bytes\":28,\"sha256\":\"" + sha("{\"wer\": 0.125, \"cer\": 0.04}\n") + "\"}\n",
                "{\"path\":\"eval/samples/0001.txt\",\"bytes\":20,\"sha256\":\"" + sha("the quick brown fox\n") + "\"}\n"));
        assertThat(Files.readString(archived.members().path())).isEqualTo(expectedLines);
        assertThat(archived.members().sha256()).isEqualTo(sha(expectedLines)).isEqualTo(m.membersSha256());
        assertThat(m.memberCount()).isEqualTo(4);
        assertThat(m.memberBytes()).isEqualTo(0 + 31 + 28 + 20);

        // the archive holds exactly those bytes
        Map<String, byte[]> members = ShardFiles.members(archived.archive().path());
        assertThat(members.keySet()).containsExactly("DONE", "config.yaml", "eval/results.json", "eval/samples/0001.txt");
        assertThat(new String(members.get("eval/results.json"), StandardCharsets.UTF_8))
                .isEqualTo("{\"wer\": 0.125, \"cer\": 0.04}\n");

        // the baseline manifest, as the gatekeeper reads it
        BaselineManifest onDisk = EventCodec.mapper().readValue(archived.manifestFile().path().toFile(), BaselineManifest.class);
        assertThat(onDisk).isEqualTo(m);
        assertThat(m.format()).isEqualTo("stowage.baseline.v1");
        assertThat(archived.manifestFile().path()).isEqualTo(staging.resolve(
                "archives/baselines/whisper-tiny/baseline-1/" + PINNED_ARCHIVE + ".manifest.json"));
        assertThat(archived.manifestSha256()).isEqualTo(Sha256.of(archived.manifestFile().path()));
    }

    @Test
    void theArchiveIsByteForByteTheDatasetShardOfTheSameFiles() throws IOException {
        Path dir = baseline(tmp.resolve("results"));
        ArchivedBaseline archived = archiver.archive(request(dir, tmp.resolve("staging-a")));
        SealedDataset shard = new DatasetSharder(new ShardWriter(0)).shard(new ShardRequest(dir, "results", "r1", null,
                "test", 1L << 30, tmp.resolve("staging-b")));

        assertThat(shard.shards()).hasSize(1);
        assertThat(shard.shards().get(0).shard().sha256()).isEqualTo(archived.manifest().sha256());
        assertThat(shard.shards().get(0).members().sha256()).isEqualTo(archived.manifest().membersSha256());
    }

    @Test
    void archivingAgainOrAnotherCopyWithOtherMtimesGivesTheSameShaAndKey() throws IOException {
        ArchivedBaseline first = archiver.archive(request(baseline(tmp.resolve("a")), tmp.resolve("staging")));
        ArchivedBaseline again = archiver.archive(request(tmp.resolve("a"), tmp.resolve("staging")));
        Path copy = baseline(tmp.resolve("b"));
        try (Stream<Path> files = Files.walk(copy)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(file, FileTime.fromMillis(987_654_321_000L));
            }
        }
        ArchivedBaseline other = archiver.archive(request(copy, tmp.resolve("staging-other")));

        assertThat(again.manifest()).isEqualTo(first.manifest());
        assertThat(other.manifest()).isEqualTo(first.manifest());
        assertThat(other.manifestSha256()).isEqualTo(first.manifestSha256());
        assertThat(first.manifest().sha256()).isEqualTo(PINNED_ARCHIVE);
    }

    @Test
    void aDryRunComputesTheSameFiguresAndKeepsNothing() throws IOException {
        Path dir = baseline(tmp.resolve("results"));
        Path staging = Files.createDirectories(tmp.resolve("staging"));

        ArchivedBaseline plan = archiver.plan(request(dir, staging));

        assertThat(plan.dryRun()).isTrue();
        assertThat(plan.manifest().sha256()).isEqualTo(PINNED_ARCHIVE);
        assertThat(plan.entries()).extracting(MemberEntry::path)
                .containsExactly("DONE", "config.yaml", "eval/results.json", "eval/samples/0001.txt");
        try (Stream<Path> left = Files.list(staging)) {
            assertThat(left).isEmpty();
        }
        ArchivedBaseline real = archiver.archive(request(dir, staging));
        assertThat(real.manifest()).isEqualTo(plan.manifest());
        assertThat(real.manifestSha256()).isEqualTo(plan.manifestSha256());
    }

    @Test
    void badNamesAnEmptyDirectoryAndStagingInsideTheDirectoryAreRefusedBeforeAnythingIsWritten() throws IOException {
        Path dir = baseline(tmp.resolve("results"));
        Path staging = tmp.resolve("staging");

        assertThatThrownBy(() -> archiver.archive(new BaselineRequest(dir, "a+b", "m1", staging)))
                .isInstanceOf(DatasetInputException.class).hasMessageContaining("model");
        assertThatThrownBy(() -> archiver.archive(new BaselineRequest(dir, "m", "x//y", staging)))
                .isInstanceOf(DatasetInputException.class).hasMessageContaining("milestone");
        assertThatThrownBy(() -> archiver.archive(request(Files.createDirectories(tmp.resolve("empty")), staging)))
                .isInstanceOf(DatasetInputException.class).hasMessageContaining("holds no files");
        assertThatThrownBy(() -> archiver.archive(request(dir, dir.resolve("staging"))))
                .isInstanceOf(DatasetInputException.class).hasMessageContaining("must not be inside");
        assertThat(staging).doesNotExist();
        assertThat(dir.resolve("staging")).doesNotExist();
    }

    @Test
    void theEventCarriesPathsSizesAndHashesOfTheThreeFiles() throws IOException {
        ArchivedBaseline archived = archiver.archive(request(baseline(tmp.resolve("results")), tmp.resolve("staging")));
        Clock clock = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

        var event = BaselineEvents.of(archived, clock);

        assertThat(event.assetId()).isEqualTo("baseline/whisper-tiny/baseline-1");
        assertThat(event.topic()).isEqualTo("baseline.archived");
        assertThat(event.sourceDir()).isEqualTo(tmp.resolve("results").toString());
        assertThat(event.sha256()).isEqualTo(PINNED_ARCHIVE);
        assertThat(event.archivePath()).isEqualTo(archived.archive().path().toString());
        assertThat(event.membersSha256()).isEqualTo(archived.manifest().membersSha256());
        assertThat(event.manifestSha256()).isEqualTo(archived.manifestSha256());
        assertThat(event.memberCount()).isEqualTo(4);
        assertThat(event.memberBytes()).isEqualTo(79);
        assertThat(event.meta().correlationId()).isEqualTo("baseline/whisper-tiny/baseline-1");
        assertThatThrownBy(() -> BaselineEvents.of(archiver.plan(request(tmp.resolve("results"), tmp.resolve("s2"))), clock))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
