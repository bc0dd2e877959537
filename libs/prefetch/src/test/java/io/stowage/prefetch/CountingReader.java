package io.stowage.prefetch;

import io.stowage.store.ObjectHead;
import io.stowage.store.ObjectReader;
import io.stowage.store.ReadResult;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passes every call to the real S3 reader and counts the GETs ({@link #open}) per key. When told, it flips one byte
 * of the first GET of a key (a fault on the wire between a correct store and the cache); later GETs are untouched.
 */
final class CountingReader implements ObjectReader {
    private final ObjectReader real;
    private final Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
    private final Set<String> corruptFirstRead = ConcurrentHashMap.newKeySet();

    CountingReader(ObjectReader real) {
        this.real = real;
    }

    /** @return GETs of {@code key} so far */
    int gets(String key) {
        AtomicInteger n = gets.get(key);
        return n == null ? 0 : n.get();
    }

    /** @return GETs of keys that end with {@code suffix} */
    int getsEndingWith(String suffix) {
        return gets.entrySet().stream().filter(e -> e.getKey().endsWith(suffix)).mapToInt(e -> e.getValue().get()).sum();
    }

    void corruptFirstRead(String key) {
        corruptFirstRead.add(key);
    }

    @Override
    public String storeName() {
        return real.storeName();
    }

    @Override
    public String bucket() {
        return real.bucket();
    }

    @Override
    public Optional<ObjectHead> head(String key) {
        return real.head(key);
    }

    @Override
    public ReadResult readAndHash(String key) {
        return real.readAndHash(key);
    }

    @Override
    public List<String> list(String prefix) {
        return real.list(prefix);
    }

    @Override
    public InputStream open(String key) {
        gets.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        InputStream in = real.open(key);
        if (!corruptFirstRead.remove(key)) {
            return in;
        }
        return new FilterInputStream(in) {
            private boolean flipped;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0 && !flipped) {
                    b[off] ^= 0x01;
                    flipped = true;
                }
                return n;
            }
        };
    }
}
