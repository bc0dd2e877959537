package io.stowage.cli.checkpoint;

import io.stowage.cli.CliException;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ObjectKind;
import io.stowage.events.Sha256;
import io.stowage.events.VerifyResult;
import io.stowage.events.ledger.AssetEvidence;
import io.stowage.events.ledger.CheckpointStepEvidence;
import io.stowage.events.ledger.ObjectEvidence;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@link CheckpointFetcher} against the real S3Proxy of the embedded stack, objects written by the store module. */
@ExtendWith(StowageStackExtension.class)
class CheckpointFetcherStoreTest {
    private static S3ObjectStore writer;
    private static S3ObjectStore replicaWriter;
    private static PrimaryStore primary;
    private static PrimaryStore replica;

    @TempDir
    Path tmp;
    private final String run = "run-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void open(StackEndpoints stack) {
        writer = new S3ObjectStore(new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey()), UploadTuning.defaults());
        primary = new PrimaryStore(stack);
        replicaWriter = new S3ObjectStore(new StoreConfig("replica", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.replicaBucket(), stack.s3AccessKey(), stack.s3SecretKey()), UploadTuning.defaults());
        replica = new PrimaryStore(stack, true);
    }

    @AfterAll
    static void close() {
        writer.close();
        primary.close();
        replicaWriter.close();
        replica.close();
    }

    @Test
    void fetchesAStepAndTheLatestStepWithEveryByteEqual() throws Exception {
        byte[] model = bytes(300_000, 1);
        byte[] optimizer = bytes(70_000, 2);
        byte[] later = bytes(1234, 3);
        upload(9, "model.pt", model);
        upload(9, "opt/optimizer.pt", optimizer);
        upload(9, "empty.bin", new byte[0]);
        upload(10, "model.pt", later);

        StoredCheckpoint step9 = new CheckpointFetcher(primary).fetch("exp", run, 9L, tmp.resolve("a"));
        assertThat(step9.step()).isEqualTo(9);
        assertThat(Files.readAllBytes(tmp.resolve("a/model.pt"))).isEqualTo(model);
        assertThat(Files.readAllBytes(tmp.resolve("a/opt/optimizer.pt"))).isEqualTo(optimizer);
        assertThat(Files.size(tmp.resolve("a/empty.bin"))).isZero();
        assertThat(files(tmp.resolve("a"))).containsExactly("empty.bin", "model.pt", "opt/optimizer.pt");

        CliException noPointer = catchThrowableOfType(CliException.class,
                () -> new CheckpointFetcher(primary).fetch("exp", run, null, tmp.resolve("b")));
        assertThat(noPointer.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(noPointer.getMessage()).isEqualTo("the run exp/" + run + " has no latest step: checkpoints/exp/"
                + run + "/latest.json is not in the primary store (no step of it was verified in full yet)");
        assertThat(tmp.resolve("b")).as("a failed fetch leaves no directory it created").doesNotExist();

        pointTo(9, new LatestCheckpoint.File("model.pt", ObjectKeys.checkpointFile("exp", run, 9, Sha256.of(model),
                "model.pt"), model.length, Sha256.of(model)));
        StoredCheckpoint pointed = new CheckpointFetcher(primary).fetch("exp", run, null, tmp.resolve("b"));
        assertThat(pointed.step()).isEqualTo(9); // the pointer, not the highest step listed (10, not verified)
        assertThat(files(tmp.resolve("b"))).containsExactly("model.pt");
        assertThat(Files.readAllBytes(tmp.resolve("b/model.pt"))).isEqualTo(model);

        pointTo(10, new LatestCheckpoint.File("model.pt", ObjectKeys.checkpointFile("exp", run, 10, Sha256.of(later),
                "model.pt"), later.length, Sha256.of(later)));
        StoredCheckpoint latest = new CheckpointFetcher(primary).fetch("exp", run, null, tmp.resolve("c"));
        assertThat(latest.step()).isEqualTo(10);
        assertThat(files(tmp.resolve("c"))).containsExactly("model.pt");
        assertThat(Files.readAllBytes(tmp.resolve("c/model.pt"))).isEqualTo(later);
    }

    @Test
    void aPointerNamingAKeyThatIsNotTheFilesContentAddressIsRefused() throws Exception {
        byte[] model = bytes(2000, 11);
        upload(4, "model.pt", model);
        pointTo(4, new LatestCheckpoint.File("model.pt", ObjectKeys.checkpointFile("other", run, 4, Sha256.of(model),
                "model.pt"), model.length, Sha256.of(model)));

        CliException e = catchThrowableOfType(CliException.class,
                () -> new CheckpointFetcher(primary).fetch("exp", run, null, tmp.resolve("d")));
        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).contains("which is not its content address").doesNotContain("\n");
        assertThat(tmp.resolve("d")).as("nothing left behind, not even the directory").doesNotExist();
    }

    @Test
    void aPrimaryCopyThatFailsItsSha256IsTakenFromTheReplicaWithANotice() throws Exception {
        byte[] model = bytes(40_000, 21);
        byte[] rotten = model.clone();
        rotten[123] ^= 0x10;
        byte[] optim = bytes(9_000, 22);
        String modelKey = ObjectKeys.checkpointFile("exp", run, 5, Sha256.of(model), "model.pt");
        writer.put(modelKey, write(rotten), rotten.length, Sha256.of(rotten), Map.of()); // bit rot in the primary
        replicaWriter.put(modelKey, write(model), model.length, Sha256.of(model), Map.of());
        upload(5, "optim.pt", optim);
        pointTo(5, new LatestCheckpoint.File("model.pt", modelKey, model.length, Sha256.of(model)),
                new LatestCheckpoint.File("optim.pt", ObjectKeys.checkpointFile("exp", run, 5, Sha256.of(optim),
                        "optim.pt"), optim.length, Sha256.of(optim)));
        List<String> notices = new java.util.ArrayList<>();

        StoredCheckpoint fetched = new CheckpointFetcher(primary, replica, notices::add)
                .fetch("exp", run, null, tmp.resolve("r"));

        assertThat(fetched.step()).isEqualTo(5);
        assertThat(Files.readAllBytes(tmp.resolve("r/model.pt"))).isEqualTo(model);
        assertThat(Files.readAllBytes(tmp.resolve("r/optim.pt"))).isEqualTo(optim);
        assertThat(notices).singleElement().asString().startsWith("model.pt taken from the replica store")
                .contains("expected sha256 " + Sha256.of(model), "got " + Sha256.of(rotten));


        byte[] lone = bytes(3_000, 23);
        byte[] loneRotten = lone.clone();
        loneRotten[7] ^= 1;
        String loneKey = ObjectKeys.checkpointFile("exp", run, 6, Sha256.of(lone), "model.pt");
        writer.put(loneKey, write(loneRotten), loneRotten.length, Sha256.of(loneRotten), Map.of()); // no replica copy
        CliException noCopy = catchThrowableOfType(CliException.class, () -> new CheckpointFetcher(primary, replica,
                notices::add).fetch("exp", run, 6L, tmp.resolve("s")));
        assertThat(noCopy.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(noCopy.getMessage()).contains("expected sha256 " + Sha256.of(lone)).contains("; replica: ")
                .doesNotContain("\n");
        assertThat(tmp.resolve("s")).as("nothing left behind, not even the directory").doesNotExist();
    }

    private void pointTo(long step, LatestCheckpoint.File... files) throws Exception {
        LatestCheckpoint pointer = new LatestCheckpoint(LatestCheckpoint.FORMAT, "exp", run, step,
                io.stowage.events.AssetIds.checkpoint("exp", run, step), List.of(files), "2026-11-30T08:00:00Z");
        byte[] json = io.stowage.events.EventCodec.mapper().writeValueAsBytes(pointer);
        writer.put(ObjectKeys.checkpointLatest("exp", run), write(json), json.length, Sha256.of(json), Map.of());
    }

    @Test
    void anObjectWhoseBytesDifferFromTheShaInItsKeyIsRefusedAndLeavesNoFile() throws Exception {
        byte[] good = bytes(5000, 4);
        byte[] claimed = bytes(5000, 5);
        byte[] actual = bytes(5000, 6);
        upload(3, "a-good.pt", good);
        Path file = write(actual);
        String key = ObjectKeys.checkpointFile("exp", run, 3, Sha256.of(claimed), "z-model.pt");
        writer.put(key, file, actual.length, Sha256.of(actual), Map.of());

        Path to = tmp.resolve("resume");
        CliException e = catchThrowableOfType(CliException.class,
                () -> new CheckpointFetcher(primary).fetch("exp", run, 3L, to));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).contains("z-model.pt").contains("expected sha256 " + Sha256.of(claimed))
                .contains("got " + Sha256.of(actual)).doesNotContain("\n");
        assertThat(to).as("nothing left behind, not even the directory").doesNotExist();
    }

    @Test
    void aNonEmptyTargetIsRefusedAndAMissingStepFails() throws Exception {
        upload(1, "model.pt", bytes(10, 7));
        Path busy = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(busy.resolve("keep.txt"), "mine");

        CliException refused = catchThrowableOfType(CliException.class,
                () -> new CheckpointFetcher(primary).fetch("exp", run, 1L, busy));
        assertThat(refused.exitCode()).isEqualTo(CliException.USAGE);
        assertThat(refused.getMessage()).contains("not empty");
        assertThat(files(busy)).containsExactly("keep.txt");

        CliException missing = catchThrowableOfType(CliException.class,
                () -> new CheckpointFetcher(primary).fetch("exp", run, 2L, tmp.resolve("new")));
        assertThat(missing.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(missing.getMessage()).isEqualTo("no step 2 of exp/" + run + " in the primary store");
    }

    @Test
    void aPublishedFileMissingFromTheStoreFailsTheStepFetchNamingItAndWritesNothing(StackEndpoints stack) throws Exception {
        byte[] model = bytes(50_000, 11);
        byte[] optimizer = bytes(20_000, 12);
        upload(5, "model.pt", model);
        upload(5, "optimizer.pt", optimizer);
        String gone = ObjectKeys.checkpointFile("exp", run, 5, Sha256.of(optimizer), "optimizer.pt");
        StoredCheckpoint published = new LedgerSteps(new RunCheckpoints("exp", run, List.of(recorded(5,
                ObjectKeys.checkpointFile("exp", run, 5, Sha256.of(model), "model.pt"), gone)))).published(5);
        deleteFromPrimary(stack, gone); // lost behind the ledger's back
        assertThat(new CheckpointFetcher(primary).fetch("exp", run, 5L, tmp.resolve("listed")).files())
                .as("the store's listing alone holds one file of the two").hasSize(1);
        long[] located = {-1};

        CliException e = catchThrowableOfType(CliException.class, () -> new CheckpointFetcher(primary, replica, n -> { })
                .fetchPublished("exp", run, published, tmp.resolve("a/b"), step -> located[0] = step));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).isEqualTo("step 5 of exp/" + run + " is incomplete in the store: 1 of its 2 published"
                + " files missing: optimizer.pt (" + gone + "); nothing fetched");
        assertThat(located[0]).as("nothing leased before the check").isEqualTo(-1);
        assertThat(tmp.resolve("a")).doesNotExist();

        upload(5, "optimizer.pt", optimizer);
        StoredCheckpoint fetched = new CheckpointFetcher(primary, replica, n -> { })
                .fetchPublished("exp", run, published, tmp.resolve("a/b"), step -> located[0] = step);
        assertThat(fetched.files()).hasSize(2);
        assertThat(located[0]).isEqualTo(5);
        assertThat(Files.readAllBytes(tmp.resolve("a/b/optimizer.pt"))).isEqualTo(optimizer);
        assertThat(files(tmp.resolve("a/b"))).containsExactly("model.pt", "optimizer.pt");
    }

    @Test
    void aFileTheLatestPointerNamesButNoStoreHoldsFailsBeforeTheStepIsLeased(StackEndpoints stack) throws Exception {
        byte[] model = bytes(30_000, 31);
        byte[] optimizer = bytes(10_000, 32);
        upload(7, "model.pt", model);
        upload(7, "optimizer.pt", optimizer);
        String gone = ObjectKeys.checkpointFile("exp", run, 7, Sha256.of(optimizer), "optimizer.pt");
        pointTo(7, new LatestCheckpoint.File("model.pt", ObjectKeys.checkpointFile("exp", run, 7, Sha256.of(model),
                "model.pt"), model.length, Sha256.of(model)),
                new LatestCheckpoint.File("optimizer.pt", gone, optimizer.length, Sha256.of(optimizer)));
        deleteFromPrimary(stack, gone);
        long[] located = {-1};

        CliException e = catchThrowableOfType(CliException.class, () -> new CheckpointFetcher(primary, replica, n -> { })
                .fetch("exp", run, null, tmp.resolve("latest"), step -> located[0] = step));

        assertThat(e.exitCode()).isEqualTo(CliException.FAILED);
        assertThat(e.getMessage()).contains("step 7 of exp/" + run + " is incomplete in the store",
                "optimizer.pt (" + gone + ")", "nothing fetched");
        assertThat(located[0]).as("nothing leased before the check").isEqualTo(-1);
        assertThat(tmp.resolve("latest")).doesNotExist();
    }

    /** Deletes {@code key} from the primary bucket with a plain S3 client, as a user or a lifecycle rule would. */
    private static void deleteFromPrimary(StackEndpoints stack, String key) {
        StoreConfig config = new StoreConfig("primary", URI.create(stack.s3Endpoint()), stack.s3Region(),
                stack.primaryBucket(), stack.s3AccessKey(), stack.s3SecretKey());
        try (S3AsyncClient s3 = S3Clients.create(config)) {
            s3.deleteObject(b -> b.bucket(config.bucket()).key(key)).join();
        }
    }

    /** A step as the ledger records it once both files' uploads were seen. */
    private static CheckpointStepEvidence recorded(long step, String... keys) {
        List<ObjectEvidence> objects = Stream.of(keys).map(k -> new ObjectEvidence("primary", "b", k,
                ObjectKind.CHECKPOINT_FILE, 1, k.split("/")[4], null, VerifyResult.OK, null)).toList();
        AssetEvidence asset = new AssetEvidence("checkpoint/exp/r/" + step, "checkpoint", "/x", true, null, null, false,
                null, null, null, null, objects, List.of());
        return new CheckpointStepEvidence(step, asset, keys.length, 2, Map.of(), List.of(), null, false, null, null, 0);
    }

    private void upload(long step, String path, byte[] content) throws Exception {
        String sha = Sha256.of(content);
        writer.put(ObjectKeys.checkpointFile("exp", run, step, sha, path), write(content), content.length, sha, Map.of());
    }

    private Path write(byte[] content) throws Exception {
        return Files.write(Files.createTempFile(tmp, "obj", ".bin"), content);
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static List<String> files(Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }
}
