package io.stowage.events;

import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Model revision keys, asset ids and events: paths with directories, the name rule, the share's bounds. */
class ModelEventsTest {
    static final String SHA = "a".repeat(64);
    static final EventMeta META = EventMeta.first("model/en-us/r1", Clock.systemUTC());

    @Test
    void keysAndAssetIdsOfAModelRevision() {
        assertThat(ObjectKeys.modelFile("en-us", "r1", SHA, "en-us/mdef")).isEqualTo("models/en-us/r1/" + SHA + "/en-us/mdef");
        assertThat(ObjectKeys.modelManifest("en-us", "r1")).isEqualTo("models/en-us/r1/manifest.json");
        assertThat(AssetIds.model("en-us", "r1")).isEqualTo("model/en-us/r1");
        assertThat(AssetIds.kindOf(AssetIds.model("en-us", "r1"))).isEqualTo("model");
        for (String bad : new String[] {"../x", "a//b", "/lead", "a/./b", "a/"}) {
            assertThatThrownBy(() -> ObjectKeys.modelFile("m", "r", SHA, bad)).isInstanceOf(InvalidEventException.class);
        }
        assertThatThrownBy(() -> AssetIds.model("a/b", "r1")).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> ObjectKeys.modelManifest("m", "..")).isInstanceOf(InvalidEventException.class);
    }

    @Test
    void aPublishNeedsLicenceAndSourceAndAShareAtMostSevenDaysAndNoUrl() {
        assertThatThrownBy(() -> ModelPublished.of(META, "m", "r", "/d", "/s.json", 1, SHA, 1, 1, " ", "src", null))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("license");
        assertThatThrownBy(() -> ModelPublished.of(META, "m", "r", "/d", "/s.json", 1, SHA, 1, 1, "MIT", null, null))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("source");
        assertThat(ModelShared.of(META, "m", "r", "ops", 604_800, "2026-12-08T00:00:00Z", 3, SHA).assetId())
                .isEqualTo("model/m/r");
        assertThatThrownBy(() -> ModelShared.of(META, "m", "r", "ops", 604_801, "t", 3, SHA))
                .isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> ModelShared.of(META, "m", "r", "https://x?X-Amz-Signature=1", 60, "t", 3, SHA))
                .isInstanceOf(InvalidEventException.class);
    }
}
