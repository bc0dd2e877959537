package io.stowage.provideradapter.compute;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The RunPod API key, read from a secrets-mount file ({@code stowage.provider-adapter.runpod.api-key-file}).
 * {@link #toString()} never shows it, so it cannot reach a log line by accident.
 */
final class RunPodApiKey {
    private final String value;

    private RunPodApiKey(String value) {
        this.value = value;
    }

    /**
     * @param file the secrets-mount file; its content, trimmed, is the key
     * @throws IOException when it cannot be read or is empty (the message names the file, never its content)
     */
    static RunPodApiKey read(Path file) throws IOException {
        String key = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (key.isEmpty()) {
            throw new IOException("RunPod API key file " + file + " is empty");
        }
        return new RunPodApiKey(key);
    }

    String value() {
        return value;
    }

    @Override
    public String toString() {
        return "RunPodApiKey[redacted]";
    }
}
