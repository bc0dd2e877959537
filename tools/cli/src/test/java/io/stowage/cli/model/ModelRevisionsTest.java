package io.stowage.cli.model;

import io.stowage.cli.CliException;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.Sha256;
import io.stowage.store.ObjectHead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The immutability rule of model revisions against an in-memory store and ledger answer. */
class ModelRevisionsTest {
    @TempDir
    Path tmp;

    final Map<String, byte[]> objects = new HashMap<>();
    final ModelRevisions.Store store = new ModelRevisions.Store() {
        @Override
        public Optional<ObjectHead> head(String key) {
            byte[] b = objects.get(key);
            return b == null ? Optional.empty() : Optional.of(new ObjectHead(b.length, Sha256.of(b), "etag"));
        }

        @Override
        public InputStream open(String key) {
            return new ByteArrayInputStream(objects.get(key));
        }
    };

    ModelPublisher.Planned plan(String mdef, String license) throws IOException {
        Path dir = tmp.resolve("m-" + Sha256.of((mdef + license).getBytes(StandardCharsets.UTF_8)).substring(0, 8));
        Files.createDirectories(dir.resolve("en-us"));
        Files.writeString(dir.resolve("en-us/mdef"), mdef);
        Files.writeString(dir.resolve("README"), "read me\n");
        return new ModelPublisher(tmp.resolve("staging"), Clock.systemUTC()).plan(dir, "en-us", "r1", license, "debian");
    }

    void store(ModelPublisher.Planned planned, boolean withFiles) throws IOException {
        objects.put(ObjectKeys.modelManifest("en-us", "r1"), planned.json());
        if (withFiles) {
            List<String> keys = planned.fileKeys();
            for (int i = 0; i < keys.size(); i++) {
                objects.put(keys.get(i), Files.readAllBytes(planned.dir().resolve(planned.manifest().files().get(i).path())));
            }
        }
    }

    ModelRevisions.Decision decide(ModelPublisher.Planned planned) {
        return new ModelRevisions(store, id -> Optional.empty()).decide(planned);
    }

    @Test
    void theSameContentTwiceGivesTheSameManifestBytes() throws IOException {
        assertThat(plan("mdef v1", "BSD").json()).isEqualTo(plan("mdef v1", "BSD").json());
    }

    @Test
    void nothingStoredIsPublishedAndEverythingStoredIsAlreadyStored() throws IOException {
        ModelPublisher.Planned planned = plan("mdef v1", "BSD");
        assertThat(decide(planned)).isEqualTo(ModelRevisions.Decision.PUBLISH);
        store(planned, false);
        assertThat(decide(planned)).as("manifest stored, a file missing: send again").isEqualTo(ModelRevisions.Decision.PUBLISH);
        store(planned, true);
        assertThat(decide(planned)).isEqualTo(ModelRevisions.Decision.ALREADY_STORED);
    }

    @Test
    void otherFilesOrAnotherLicenceUnderTheSameRevisionAreRefusedNamingTheDifference() throws IOException {
        store(plan("mdef v1", "BSD"), true);
        assertThatThrownBy(() -> decide(plan("mdef v2", "BSD"))).isInstanceOf(CliException.class)
                .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(CliException.FAILED))
                .hasMessageStartingWith("refusing to publish model/en-us/r1: a published model revision never changes")
                .hasMessageContaining("file en-us/mdef: 7 bytes sha256 ").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> decide(plan("mdef v1", "MIT"))).hasMessageContaining("licence 'BSD' stored, 'MIT' here");
    }

    @Test
    void aPublishTheLedgerRecordedWithOtherContentIsRefusedBeforeTheStoreHasIt() throws IOException {
        ModelPublisher.Planned first = plan("mdef v1", "BSD");
        AssetEvidence inFlight = new AssetEvidence("model/en-us/r1", "model", "/hot/m", true, "/staging/x.json",
                first.sha256(), false, "r1", "BSD", "debian", null, List.of(), List.of(), "seal");
        ModelRevisions revisions = new ModelRevisions(store, id -> Optional.of(inFlight));
        assertThat(revisions.decide(first)).isEqualTo(ModelRevisions.Decision.PUBLISH);
        assertThatThrownBy(() -> revisions.decide(plan("mdef v2", "BSD")))
                .hasMessageContaining("the ledger records another publish of it");
    }

    @Test
    void badNamesAndBlankLicencesAreUsageErrors() {
        ModelPublisher publisher = new ModelPublisher(tmp, Clock.systemUTC());
        for (String bad : List.of("a+b", "..", "x/y", "")) {
            assertThatThrownBy(() -> publisher.plan(tmp, bad, "r1", "BSD", "s"))
                    .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(CliException.USAGE));
            assertThatThrownBy(() -> publisher.plan(tmp, "m", bad, "BSD", "s"))
                    .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(CliException.USAGE));
        }
        assertThatThrownBy(() -> publisher.plan(tmp, "m", "r1", "BSD", "  ")).hasMessageContaining("--source");
    }
}
