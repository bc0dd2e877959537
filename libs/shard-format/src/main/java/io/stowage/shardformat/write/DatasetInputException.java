package io.stowage.shardformat.write;

/**
 * The request cannot be served as given (bad name, missing or unreadable directory, a symlink in
 * the dataset, staging inside the dataset); the message is one line, fit for an HTTP 400 or a CLI.
 */
public class DatasetInputException extends RuntimeException {
    /** @param message one line naming the offending field or path */
    public DatasetInputException(String message) {
        super(message);
    }
}
