package io.stowage.shardbuilder.api;

/** JSON error answer: {@code {"error": "<one line>"}}. */
public record ErrorBody(String error) {
    /** @return the body with {@code message} cut at its first line break (null becomes the exception class name) */
    static ErrorBody of(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return new ErrorBody(newline < 0 ? message : message.substring(0, newline));
    }
}
