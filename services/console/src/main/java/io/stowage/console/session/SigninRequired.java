package io.stowage.console.session;

/** Thrown by a page when the request has no viewer: answered 303 to {@code /signin} (never a page with data). */
public class SigninRequired extends RuntimeException {
    public SigninRequired() {
        super("sign in with a reader or operator token", null, false, false);
    }
}
