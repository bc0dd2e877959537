package io.stowage.uploader.storage;

import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectWriter;
import io.stowage.store.PutResult;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * An {@link ObjectWriter} that passes every call to a real writer; tests override one method to act in the window a
 * call opens (what another writer does between this one's HEAD and PUT) or to change one answer.
 */
public class ForwardingWriter implements ObjectWriter {
    protected final ObjectWriter writer;

    /** @param writer the writer every call goes to */
    public ForwardingWriter(ObjectWriter writer) {
        this.writer = writer;
    }

    @Override
    public String storeName() {
        return writer.storeName();
    }

    @Override
    public String bucket() {
        return writer.bucket();
    }

    @Override
    public PutResult put(String key, Path file, long bytes, String sha256, Map<String, String> metadata) {
        return writer.put(key, file, bytes, sha256, metadata);
    }

    @Override
    public PutResult putIfUnchanged(String key, Path file, long bytes, String sha256, Map<String, String> metadata,
                                    String expectedEtag) {
        return writer.putIfUnchanged(key, file, bytes, sha256, metadata, expectedEtag);
    }

    @Override
    public Optional<ObjectHead> head(String key) {
        return writer.head(key);
    }

    @Override
    public int abortIncompleteUploads(String key) {
        return writer.abortIncompleteUploads(key);
    }

    @Override
    public int abortUploadsOlderThan(Duration age) {
        return writer.abortUploadsOlderThan(age);
    }
}
