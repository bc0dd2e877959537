package io.stowage.store.s3;

import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.exception.SdkClientException;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamedFileRangeTest {
    @TempDir
    Path dir;

    @Test
    void streamsExactlyTheRangeInSmallChunksAndHashesWhatItHandsOut() throws Exception {
        byte[] content = new byte[StreamedFileRange.CHUNK_BYTES * 3 + 11];
        new Random(7).nextBytes(content);
        Path file = Files.write(dir.resolve("range.bin"), content);
        long offset = 1000;
        long length = StreamedFileRange.CHUNK_BYTES * 2L + 5;
        byte[] expected = Arrays.copyOfRange(content, (int) offset, (int) (offset + length));
        StreamedFileRange body = new StreamedFileRange(file, offset, length);

        assertThat(body.contentLength()).contains(length);
        assertThat(body.sent()).isEqualTo(new StreamedFileRange.Sent(0, Sha256.of(new byte[0])));
        Collected first = collect(body);
        assertThat(first.bytes.toByteArray()).isEqualTo(expected);
        assertThat(first.largestChunk).isLessThanOrEqualTo(StreamedFileRange.CHUNK_BYTES);
        assertThat(body.sent()).isEqualTo(new StreamedFileRange.Sent(length, Sha256.of(expected)));

        // a second subscription (a retry) starts a new count
        assertThat(collect(body).bytes.toByteArray()).isEqualTo(expected);
        assertThat(body.sent()).isEqualTo(new StreamedFileRange.Sent(length, Sha256.of(expected)));
        assertThat(body.fileChanged()).isFalse();

        // the file changes in place (same size) after the body was built: the SDK refuses to send it
        content[(int) offset] ^= 1;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {content[(int) offset]}), offset);
        }
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5_000));
        assertThatThrownBy(() -> collect(body)).isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(SdkClientException.class);
        assertThat(body.fileChanged()).isTrue();

        // a body built after the change streams the new bytes, and its digest shows the difference
        byte[] changed = Arrays.copyOfRange(content, (int) offset, (int) (offset + length));
        StreamedFileRange rebuilt = new StreamedFileRange(file, offset, length);
        assertThat(collect(rebuilt).bytes.toByteArray()).isEqualTo(changed);
        assertThat(rebuilt.sent()).isEqualTo(new StreamedFileRange.Sent(length, Sha256.of(changed)));
        assertThat(rebuilt.sent().sha256()).isNotEqualTo(Sha256.of(expected));
    }

    private static Collected collect(StreamedFileRange body) throws Exception {
        Collected collected = new Collected();
        CompletableFuture<Void> done = new CompletableFuture<>();
        body.subscribe(new Subscriber<ByteBuffer>() {
            private Subscription subscription;

            @Override
            public void onSubscribe(Subscription s) {
                subscription = s;
                s.request(1);
            }

            @Override
            public void onNext(ByteBuffer chunk) {
                collected.largestChunk = Math.max(collected.largestChunk, chunk.remaining());
                byte[] bytes = new byte[chunk.remaining()];
                chunk.get(bytes);
                collected.bytes.writeBytes(bytes);
                subscription.request(1);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        done.get(30, TimeUnit.SECONDS);
        return collected;
    }

    private static final class Collected {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int largestChunk;
    }
}
