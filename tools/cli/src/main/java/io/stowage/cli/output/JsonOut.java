package io.stowage.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;

/** One-line JSON on standard output for {@code --json}. */
public final class JsonOut {
    private JsonOut() {
    }

    /**
     * Prints {@code value} (a record or JSON tree) as one line of JSON on standard output.
     *
     * @throws CliException (exit 1) when Jackson cannot encode it
     */
    public static void print(Object value) {
        try {
            System.out.println(EventCodec.mapper().writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new CliException(CliException.FAILED, "cannot print JSON: " + e.getMessage(), e);
        }
    }
}
