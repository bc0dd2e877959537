package io.stowage.cli.store;

import io.stowage.cli.CliException;
import io.stowage.cli.checkpoint.CheckpointFetcher;
import io.stowage.stack.StackEndpoints;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreConfig;
import io.stowage.store.s3.S3Clients;
import io.stowage.store.s3.S3ObjectStore;
import io.stowage.store.s3.UploadTuning;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * The session's primary (or replica) bucket as the CLI reads it: lists keys through the store module's
 * {@link S3ObjectStore} and opens an object's bytes as a stream (one GET on the store module's
 * {@link S3Clients} client). Close it to close both clients.
 */
public final class PrimaryStore implements io.stowage.cli.model.ModelFetcher.Source, AutoCloseable {
    private final S3ObjectStore store;
    private final S3AsyncClient client;
    private final String bucket;
    private final String name;

    /** Connects to {@code stack}'s S3 endpoint with its keys; {@link #close()} closes the clients. */
    public PrimaryStore(StackEndpoints stack) {
        this(stack, false);
    }

    /**
     * @param replica read the session's replica bucket instead (the second copy of key checkpoints), for
     *                {@code fetch}'s fallback when a primary copy fails
     */
    public PrimaryStore(StackEndpoints stack, boolean replica) {
        StoreConfig config = new StoreConfig(replica ? "replica" : "primary", URI.create(stack.s3Endpoint()),
                stack.s3Region(), replica ? stack.replicaBucket() : stack.primaryBucket(), stack.s3AccessKey(),
                stack.s3SecretKey());
        this.name = config.name();
        this.bucket = config.bucket();
        this.store = new S3ObjectStore(config, UploadTuning.defaults());
        this.client = S3Clients.create(config);
    }

    /** @return every key under {@code prefix}, lexical order; throws the store module's exceptions */
    @Override
    public List<String> list(String prefix) {
        return store.list(prefix);
    }

    /**
     * @return the object's bytes as a stream (the caller closes it)
     * @throws ObjectNotFoundException when there is no object at {@code key}
     * @throws CliException (exit 1) when the store cannot be reached or refuses the GET
     */
    @Override
    public InputStream open(String key) {
        try {
            return client.getObject(b -> b.bucket(bucket).key(key), AsyncResponseTransformer.toBlockingInputStream()).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof NoSuchKeyException) {
                throw new ObjectNotFoundException(bucket, key);
            }
            throw new CliException(CliException.FAILED, "cannot read " + name + ":" + bucket + "/" + key + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        }
    }

    /**
     * @return the object's size, SHA-256 metadata and ETag; empty when there is no object at {@code key}
     * @throws io.stowage.store.StoreException when the store cannot be reached or refuses the HEAD
     */
    @Override
    public java.util.Optional<io.stowage.store.ObjectHead> head(String key) {
        return store.head(key);
    }

    /**
     * Server-side copy inside the bucket ({@link S3ObjectStore#copy}); nothing is downloaded.
     *
     * @return the parts used, 0 for one CopyObject
     */
    public int copy(String sourceKey, String targetKey, java.util.Map<String, String> metadata, long partCopyThreshold,
                    long partSize) {
        return store.copy(sourceKey, targetKey, metadata, partCopyThreshold, partSize);
    }

    /** @return the SHA-256 of the object's bytes, read in full now */
    public String readSha256(String key) {
        return store.readAndHash(key).sha256();
    }

    @Override
    public void close() {
        client.close();
        store.close();
    }
}
