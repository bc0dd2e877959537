package io.stowage.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.stowage.events.EventCodec;

/** One-line JSON on standard output for {@code --json}. */
final class JsonOut {
    private JsonOut() {
    }

    static void print(Object value) {
        try {
            System.out.println(EventCodec.mapper().writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new CliException(CliException.FAILED, "cannot print JSON: " + e.getMessage(), e);
        }
    }
}
