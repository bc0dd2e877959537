package io.stowage.shardformat.write;

import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same directory content gives the same shard bytes whoever builds it, wherever and with
 * whatever file metadata: another user name, time zone, locale, permission bits (what another
 * umask leaves) and mtimes. The SHA-256s are pinned, so the second surefire run (default charset
 * ISO-8859-1) checks that another JVM setting gives the very same bytes too.
 */
class DeterminismTest {
    /** SHA-256 of the shards of {@link DatasetSharderTest#dataset} with seed 11, 64 KiB target, mtime 0. */
    static final List<String> PINNED_SHARDS = List.of(
            "e3d91c26ab45c9287bb758db043527bff697a3a09c83c1e433e7182ed23aa11e",
            "b936244e2bf98a8fec66e53f06889a38b7339367dd6355f04f008f7da84800f6",
            "e4bffb442239016703089b1f6fade8945c3e5865ccdc89c112eb4a5d6b8147cb");

    @TempDir
    Path tmp;

    private SealedDataset build(Path dir, Path staging) throws IOException {
        return new DatasetSharder(new ShardWriter(0))
                .shard(new ShardRequest(dir, "speech", "r1", "CC-BY-SA-3.0", "test", 64 * 1024, staging));
    }

    private static List<String> shas(SealedDataset sealed) {
        return sealed.shards().stream().map(s -> s.shard().sha256()).toList();
    }

    @Test
    void anotherUserTimeZoneLocaleUmaskAndMtimeGiveIdenticalShards() throws IOException {
        SealedDataset first = build(DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("a")), 11),
                tmp.resolve("staging-a"));

        Path second = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("b")), 11);
        try (var files = Files.walk(second)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
                Files.setLastModifiedTime(file, FileTime.fromMillis(987_654_321_000L));
            }
        }
        TimeZone zone = TimeZone.getDefault();
        Locale locale = Locale.getDefault();
        String user = System.getProperty("user.name");
        SealedDataset other;
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Kiritimati"));
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            System.setProperty("user.name", "İnşaat-mühendisi-with-a-long-account-name");
            other = build(second, tmp.resolve("staging-b"));
        } finally {
            TimeZone.setDefault(zone);
            Locale.setDefault(locale);
            System.setProperty("user.name", user);
        }

        assertThat(shas(other)).isEqualTo(shas(first)).isEqualTo(PINNED_SHARDS);
        assertThat(other.manifestFile().sha256()).isEqualTo(first.manifestFile().sha256());
        for (BuiltShard shard : other.shards()) {
            assertThat(Sha256.of(shard.shard().path())).isEqualTo(shard.shard().sha256());
        }
    }

    /**
     * Copies of the dataset made by {@code cp -R} in a shell under umask 0000, 0022 and 0077 (from a
     * source whose files are mode 0777) differ in their permission bits only; the shards do not, and
     * every header says 0644.
     */
    @Test
    void copiesMadeUnderAnotherUmaskGiveIdenticalShards() throws Exception {
        Path source = DatasetSharderTest.dataset(Files.createDirectories(tmp.resolve("source")), 11);
        try (var entries = Files.walk(source)) {
            for (Path entry : entries.toList()) {
                Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rwxrwxrwx"));
            }
        }
        Map<String, String> expectedMode = Map.of("0000", "rwxrwxrwx", "0022", "rwxr-xr-x", "0077", "rwx------");
        for (var umask : new TreeMap<>(expectedMode).entrySet()) {
            Path copy = tmp.resolve("copy-" + umask.getKey());
            Process cp = new ProcessBuilder("sh", "-c", "umask " + umask.getKey() + " && cp -R \"$1\" \"$2\"", "sh",
                    source.toString(), copy.toString()).redirectErrorStream(true).start();
            String messages = new String(cp.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(cp.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(cp.exitValue()).as(messages).isZero();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy.resolve("empty.txt"))))
                    .as("umask %s took effect", umask.getKey()).isEqualTo(umask.getValue());

            SealedDataset sealed = build(copy, tmp.resolve("staging-" + umask.getKey()));

            assertThat(shas(sealed)).as("umask %s", umask.getKey()).isEqualTo(PINNED_SHARDS);
            for (BuiltShard shard : sealed.shards()) {
                assertThat(ShardFiles.headers(shard.shard().path()))
                        .allSatisfy(header -> assertThat(header.getMode()).isEqualTo(0100644));
            }
        }
    }

    /** Only in the surefire execution that sets {@code stowage.test.default-charset}: proves it really ran under it. */
    @Test
    void runsUnderTheDefaultCharsetTheBuildAskedFor() {
        String expected = System.getProperty("stowage.test.default-charset");
        assumeTrue(expected != null, "the default-charset execution sets stowage.test.default-charset");
        assertThat(Charset.defaultCharset().name()).isEqualTo(expected);
    }
}
