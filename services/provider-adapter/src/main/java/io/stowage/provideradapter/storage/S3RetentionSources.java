package io.stowage.provideradapter.storage;

import io.stowage.events.EventCodec;
import io.stowage.events.ObjectKeys;
import io.stowage.events.ledger.RunCheckpoints;
import io.stowage.events.manifest.LatestCheckpoint;
import io.stowage.provideradapter.domain.retention.RetentionSources;
import io.stowage.store.ObjectNotFoundException;
import io.stowage.store.StoreConfig;
import io.stowage.store.StoreException;
import io.stowage.store.s3.HttpBackend;
import io.stowage.store.s3.ReadTuning;
import io.stowage.store.s3.S3Clients;
import io.stowage.store.s3.S3ObjectReader;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * {@link RetentionSources} on the real services: the ledger's {@code GET /api/checkpoints/steps} (with the service's
 * client token), latest.json and HEAD through a read-only {@link S3ObjectReader} per store, and the one
 * {@link DeleteObjectRequest} of Stowage, only for keys under {@code checkpoints/} (checked again here, below every
 * other check). The only class allowed to use an S3 delete type (StoreAccessRules.deleteOnlyIn).
 */
public final class S3RetentionSources implements RetentionSources, AutoCloseable {
    /** The only prefix this class ever deletes under. */
    public static final String DELETABLE_PREFIX = "checkpoints/";
    private static final int MAX_POINTER_BYTES = 16 << 20;

    private final URI ledger;
    private final Optional<String> authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, StoreConfig> configs = new LinkedHashMap<>();
    private final Map<String, S3ObjectReader> readers = new LinkedHashMap<>();
    private final Map<String, S3AsyncClient> deleters = new LinkedHashMap<>();

    /**
     * @param ledger        base URL of the ledger's HTTP API
     * @param authorization the {@code Authorization} header value for the ledger, empty for none
     * @param stores        "primary" and (optionally) "replica" with their endpoints, buckets and credentials
     */
    public S3RetentionSources(URI ledger, Optional<String> authorization, Map<String, StoreConfig> stores) {
        this.ledger = ledger;
        this.authorization = authorization;
        stores.forEach((name, config) -> {
            configs.put(name, config);
            readers.put(name, new S3ObjectReader(config, ReadTuning.defaults(), HttpBackend.URL_CONNECTION));
            deleters.put(name, S3Clients.create(config));
        });
    }

    @Override
    public RunCheckpoints steps(String experiment, String run) throws IOException {
        return EventCodec.mapper().readValue(get("/api/checkpoints/steps?experiment=" + encode(experiment) + "&run="
                + encode(run)), RunCheckpoints.class);
    }

    @Override
    public java.util.List<io.stowage.events.ledger.RunRetentionPolicy> capsulePolicies() throws IOException {
        return EventCodec.mapper().readValue(get("/api/checkpoints/policies"),
                new com.fasterxml.jackson.core.type.TypeReference<java.util.List<io.stowage.events.ledger.RunRetentionPolicy>>() { });
    }

    // the ledger's 200 answer to GET pathAndQuery
    private byte[] get(String pathAndQuery) throws IOException {
        URI uri = ledger.resolve(pathAndQuery);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
        authorization.ifPresent(a -> request.header("Authorization", a));
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking the ledger", e);
        }
        if (response.statusCode() != 200) {
            throw new IOException("the ledger answered " + response.statusCode() + " to GET " + uri.getPath());
        }
        return response.body();
    }

    @Override
    public Long latestStep(String experiment, String run) throws IOException {
        String key = ObjectKeys.checkpointLatest(experiment, run);
        try (InputStream in = reader("primary").open(key)) {
            LatestCheckpoint pointer = EventCodec.mapper().readValue(in.readNBytes(MAX_POINTER_BYTES), LatestCheckpoint.class);
            if (!experiment.equals(pointer.experiment()) || !run.equals(pointer.run())) {
                throw new IOException(key + " is not a latest pointer of " + experiment + "/" + run);
            }
            return pointer.step();
        } catch (ObjectNotFoundException e) {
            return null;
        } catch (StoreException e) {
            throw new IOException("cannot read " + key + ": " + firstLine(e), e);
        }
    }

    @Override
    public Map<String, String> buckets() {
        Map<String, String> out = new LinkedHashMap<>();
        configs.forEach((name, config) -> out.put(name, config.bucket()));
        return out;
    }

    @Override
    public void delete(String store, String key) throws IOException {
        if (key == null || !key.startsWith(DELETABLE_PREFIX) || key.contains("..")) {
            throw new IllegalArgumentException("retention deletes only under " + DELETABLE_PREFIX + ", not " + key);
        }
        S3AsyncClient client = deleters.get(store);
        if (client == null) {
            throw new IllegalArgumentException("no store named " + store);
        }
        try {
            client.deleteObject(DeleteObjectRequest.builder().bucket(configs.get(store).bucket()).key(key).build()).join();
        } catch (CompletionException e) {
            throw new IOException(firstLine(e.getCause() == null ? e : e.getCause()), e);
        }
    }

    @Override
    public boolean exists(String store, String key) throws IOException {
        try {
            return reader(store).head(key).isPresent();
        } catch (StoreException e) {
            throw new IOException(firstLine(e), e);
        }
    }

    private S3ObjectReader reader(String store) {
        S3ObjectReader reader = readers.get(store);
        if (reader == null) {
            throw new IllegalArgumentException("no store named " + store);
        }
        return reader;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String firstLine(Throwable e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getSimpleName());
    }

    @Override
    public void close() {
        readers.values().forEach(S3ObjectReader::close);
        deleters.values().forEach(S3AsyncClient::close);
    }
}
