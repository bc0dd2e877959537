package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An inventory too large for one record is cut into parts that each fit, and joined back to the signed digest. */
class GateInventoryTest {
    private static final String SHA = "a".repeat(64);
    private final Clock clock = Clock.fixed(Instant.parse("2026-12-02T04:00:00Z"), ZoneOffset.UTC);

    private static List<InventoryEntry> files(int n) {
        List<InventoryEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            entries.add(new InventoryEntry(String.format("speaker-%04d/utt-%06d.wav", i % 2000, i), 16_000L + i,
                    Sha256.of(("file " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        }
        return DirectoryInventory.of(entries).entries();
    }

    @Test
    void aLargeInventoryIsCutIntoPartsUnderTheLimitWhoseJoinHasTheDigest() {
        DirectoryInventory inventory = DirectoryInventory.of(files(50_000));
        assertThat(GateInventory.fitsInline(inventory.entries())).isFalse();

        List<List<InventoryEntry>> runs = GateInventory.split(inventory.entries());
        GatePassed full = GatePassed.of(EventMeta.first("release/req-1", clock), "req-1", "/hot/speech", false,
                List.of("dataset/speech/r1"), SHA, passed(), inventory);
        GatePassed decision = full.byReference(runs.size());
        List<GateInventory> parts = GateInventory.partsOf(decision, runs);

        assertThat(runs.size()).isGreaterThan(1);
        for (GateInventory part : parts) {
            assertThat(EventCodec.encode(part).length).as("part " + part.part())
                    .isLessThan(GateInventory.MAX_PART_BYTES + 1024);
            assertThat(part.parts()).isEqualTo(runs.size());
            assertThat(part.decisionId()).isEqualTo(decision.meta().eventId());
            assertThat(part.assetId()).isEqualTo(decision.assetId());
        }
        assertThat(EventCodec.encode(decision).length).as("the decision record itself").isLessThan(16 * 1024);
        assertThat(decision.inventory()).isEmpty();
        assertThat(decision.fileCount()).isEqualTo(50_000);
        List<InventoryEntry> joined = parts.stream().flatMap(p -> p.entries().stream()).toList();
        assertThat(joined).isEqualTo(inventory.entries());
        assertThat(DirectoryInventory.digestOf(joined)).isEqualTo(decision.inventoryDigest());
        assertThat(decision.withInventory(joined)).isEqualTo(full);
        assertThat(EventCodec.decode(GatePassed.class, EventCodec.encode(decision))).isEqualTo(decision);
    }

    @Test
    void partIdsAreTheSameForEverySendOfTheSameDecision() {
        assertThat(GateInventory.partId("d-1", 3)).isEqualTo(GateInventory.partId("d-1", 3))
                .isNotEqualTo(GateInventory.partId("d-1", 4)).isNotEqualTo(GateInventory.partId("d-2", 3));
    }

    @Test
    void aSmallInventoryFitsInlineAndAnEntryLargerThanAPartIsAPartOfItsOwn() {
        assertThat(GateInventory.fitsInline(files(100))).isTrue();
        InventoryEntry huge = new InventoryEntry("d/" + "x".repeat(GateInventory.MAX_PART_BYTES), 1, SHA);
        List<InventoryEntry> entries = List.of(new InventoryEntry("a", 1, SHA), huge, new InventoryEntry("z", 1, SHA));

        List<List<InventoryEntry>> runs = GateInventory.split(entries);

        assertThat(runs).containsExactly(List.of(entries.get(0)), List.of(huge), List.of(entries.get(2)));
    }

    @Test
    void aDecisionByReferenceCarriesNoInlineEntries() {
        GatePassed full = GatePassed.of(EventMeta.first("release/req-1", clock), "req-1", "/hot/speech", false,
                List.of("dataset/speech/r1"), SHA, passed(), DirectoryInventory.of(files(3)));
        GatePassed mixed = new GatePassed(full.meta(), full.requestId(), full.path(), false, full.assets(),
                full.fileCount(), full.totalBytes(), full.fingerprint(), full.conditions(), full.inventoryDigest(),
                full.inventory(), 2);

        assertThatThrownBy(mixed::validate).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("no inline entries");
        assertThatThrownBy(() -> full.byReference(0)).isInstanceOf(InvalidEventException.class);
    }

    private static List<ConditionResult> passed() {
        List<ConditionResult> conditions = new ArrayList<>();
        for (int c = 1; c <= 5; c++) {
            conditions.add(new ConditionResult(c, "condition-" + c, true, "ok", List.of()));
        }
        return conditions;
    }
}
