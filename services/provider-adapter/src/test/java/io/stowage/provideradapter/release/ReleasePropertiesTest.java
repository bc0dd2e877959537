package io.stowage.provideradapter.release;

import io.stowage.events.ConditionResult;
import io.stowage.events.DirectoryFingerprint;
import io.stowage.events.DirectoryInventory;
import io.stowage.events.EventCodec;
import io.stowage.events.EventMeta;
import io.stowage.events.GatePassed;
import io.stowage.events.GateSignature;
import io.stowage.events.StowageEvent;
import io.stowage.events.VolumeReleased;
import io.stowage.provideradapter.domain.DecisionAuthenticator;
import io.stowage.provideradapter.domain.MemoryReleaseJournal;
import io.stowage.provideradapter.domain.ReleaseHandler;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property, on the real disk: over random directory trees, random changes after the gate decided
 * (a file added, rewritten with the same size and mtime, removed, swapped for a symlink, an empty
 * directory added), random decisions (unsigned, signed with another key, altered after signing,
 * without inventory, a dry run, a stale fingerprint) and random targets (the approved directory, the
 * volume root, a protected root, a path outside the volumes), the provider-adapter deletes something
 * only when an authentic, non-dry-run decision for a releasable target matches the directory's current
 * inventory, and then exactly that directory; otherwise the whole temp tree is unchanged.
 */
class ReleasePropertiesTest {
    static final String KEY = "property-test-gate-signing-key-0123456789";
    static final GateSignature SIGNER = new GateSignature(KEY);

    enum Change { NONE, ADD_FILE, REWRITE_SAME_SIZE_AND_MTIME, REMOVE_FILE, SWAP_FOR_SYMLINK, ADD_EMPTY_DIR }

    enum Decision { AUTHENTIC, UNSIGNED, OTHER_KEY, ALTERED, NO_INVENTORY, DRY_RUN, STALE_FINGERPRINT }

    enum Target { APPROVED, VOLUME_ROOT, PROTECTED_ROOT, OUTSIDE }

    record Case(Map<String, String> files, Change change, Decision decision, Target target) {
        boolean shouldDelete() {
            return change == Change.NONE && decision == Decision.AUTHENTIC && target == Target.APPROVED;
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> dirs = Arbitraries.of("", "a/", "b/", "a/b/");
        Arbitrary<String> content = Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(30);
        Arbitrary<Map<String, String>> files = Combinators.combine(dirs.list().ofMinSize(1).ofMaxSize(5),
                content.list().ofSize(5)).as((prefixes, contents) -> {
                    Map<String, String> tree = new TreeMap<>();
                    for (int i = 0; i < prefixes.size(); i++) {
                        tree.put(prefixes.get(i) + "f" + i + ".bin", contents.get(i));
                    }
                    return tree;
                });
        Arbitrary<Change> change = Arbitraries.frequency(Tuple.of(4, Change.NONE),
                Tuple.of(1, Change.ADD_FILE), Tuple.of(1, Change.REWRITE_SAME_SIZE_AND_MTIME),
                Tuple.of(1, Change.REMOVE_FILE), Tuple.of(1, Change.SWAP_FOR_SYMLINK),
                Tuple.of(1, Change.ADD_EMPTY_DIR));
        Arbitrary<Decision> decision = Arbitraries.frequency(Tuple.of(5, Decision.AUTHENTIC),
                Tuple.of(1, Decision.UNSIGNED), Tuple.of(1, Decision.OTHER_KEY),
                Tuple.of(1, Decision.ALTERED), Tuple.of(1, Decision.NO_INVENTORY),
                Tuple.of(1, Decision.DRY_RUN), Tuple.of(1, Decision.STALE_FINGERPRINT));
        Arbitrary<Target> target = Arbitraries.frequency(Tuple.of(5, Target.APPROVED),
                Tuple.of(1, Target.VOLUME_ROOT), Tuple.of(1, Target.PROTECTED_ROOT),
                Tuple.of(1, Target.OUTSIDE));
        return Combinators.combine(files, change, decision, target).as(Case::new);
    }

    @Property(tries = 150)
    void deletesOnlyAnAuthenticMatchingDecisionAndThenExactlyItsDirectory(@ForAll("cases") Case c) throws Exception {
        Statistics.label("deletes").collect(c.shouldDelete());
        Statistics.label("deletes").coverage(coverage -> {
            coverage.check(true).count(n -> n >= 5);
            coverage.check(false).count(n -> n >= 5);
        });
        Path tmp = Files.createTempDirectory("release-property-");
        try {
            Path vol = Files.createDirectories(tmp.resolve("vol"));
            Files.createDirectories(tmp.resolve("ws"));
            Path outside = Files.createDirectories(tmp.resolve("outside"));
            Files.writeString(outside.resolve("precious"), "keep");
            Path dir = vol.resolve("data/step-1");
            for (var file : c.files().entrySet()) {
                Files.createDirectories(dir.resolve(file.getKey()).getParent());
                Files.writeString(dir.resolve(file.getKey()), file.getValue());
            }
            Files.writeString(vol.resolve("data/sibling.txt"), "sibling");
            Path target = switch (c.target()) {
                case APPROVED -> dir;
                case VOLUME_ROOT -> vol;
                case PROTECTED_ROOT -> tmp.resolve("ws");
                case OUTSIDE -> outside;
            };
            GatePassed decision = decide(target, c.decision());
            change(dir, c.change(), outside);
            Map<String, String> before = Approvals.snapshot(tmp);

            ReleaseHandler handler = new ReleaseHandler(new LocalDiskProvider(Approvals.policy(vol)),
                    DecisionAuthenticator.of(Optional.of(KEY)), new MemoryReleaseJournal(), Clock.systemUTC());
            Optional<StowageEvent> outcome = deliver(handler, decision, c.decision());

            if (c.shouldDelete()) {
                assertThat(outcome).as("%s", c).get().isInstanceOf(VolumeReleased.class);
                assertThat(dir).doesNotExist();
                Map<String, String> expected = new TreeMap<>(before);
                expected.keySet().removeIf(p -> p.equals("vol/data/step-1") || p.startsWith("vol/data/step-1/"));
                assertThat(Approvals.snapshot(tmp)).as("only the approved directory is gone").isEqualTo(expected);
            } else {
                assertThat(outcome.filter(VolumeReleased.class::isInstance)).as("%s -> %s", c, outcome).isEmpty();
                assertThat(Approvals.snapshot(tmp)).as("%s: nothing touched", c).isEqualTo(before);
            }
        } finally {
            deleteQuietly(tmp);
        }
    }

    /** The gate's decision on {@code target} as it is now (the gate ran before the change). */
    static GatePassed decide(Path target, Decision kind) throws IOException {
        DirectoryInventory inventory = DirectoryInventory.take(target);
        String fingerprint = kind == Decision.STALE_FINGERPRINT ? "0".repeat(64) : DirectoryFingerprint.of(target).sha256();
        List<ConditionResult> conditions = IntStream.rangeClosed(1, 5).mapToObj(i -> new ConditionResult(i,
                ConditionResult.NAMES.get(i - 1), true, "held", List.of("ev-" + i))).toList();
        String requestId = UUID.randomUUID().toString();
        EventMeta meta = EventMeta.first(requestId, Clock.systemUTC());
        if (kind == Decision.NO_INVENTORY) {
            return GatePassed.of(meta, requestId, target.toString(), false, List.of("checkpoint/exp/run/1"),
                    inventory.fileCount(), inventory.totalBytes(), fingerprint);
        }
        return GatePassed.of(meta, requestId, target.toString(), kind == Decision.DRY_RUN, List.of("checkpoint/exp/run/1"),
                fingerprint, conditions, inventory);
    }

    static Optional<StowageEvent> deliver(ReleaseHandler handler, GatePassed decision, Decision kind) {
        byte[] value = EventCodec.encode(decision);
        return switch (kind) {
            case UNSIGNED -> handler.handle(value, null);
            case OTHER_KEY -> handler.handle(value, new GateSignature("another-key-of-at-least-32-bytes-xxx").sign(value));
            case ALTERED -> {
                String signature = SIGNER.sign(value);
                // same JSON meaning, other bytes: a trailing space after signing
                byte[] altered = (new String(value, StandardCharsets.UTF_8) + " ").getBytes(StandardCharsets.UTF_8);
                yield handler.handle(altered, signature);
            }
            default -> handler.handle(value, SIGNER.sign(value));
        };
    }

    static void change(Path dir, Change change, Path outside) throws IOException {
        Path first;
        try (Stream<Path> walk = Files.walk(dir)) {
            first = walk.filter(Files::isRegularFile).sorted().findFirst().orElseThrow();
        }
        switch (change) {
            case NONE -> { }
            case ADD_FILE -> Files.writeString(dir.resolve("late.bin"), "late");
            case REWRITE_SAME_SIZE_AND_MTIME -> {
                FileTime mtime = Files.getLastModifiedTime(first);
                byte[] bytes = Files.readAllBytes(first);
                bytes[0] = (byte) (bytes[0] == 'X' ? 'Y' : 'X');
                Files.write(first, bytes);
                Files.setLastModifiedTime(first, mtime);
            }
            case REMOVE_FILE -> Files.delete(first);
            case SWAP_FOR_SYMLINK -> {
                Files.delete(first);
                Files.createSymbolicLink(first, outside.resolve("precious"));
            }
            case ADD_EMPTY_DIR -> Files.createDirectories(dir.resolve("new-empty-dir"));
        }
    }

    static void deleteQuietly(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
