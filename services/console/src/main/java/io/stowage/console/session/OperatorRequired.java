package io.stowage.console.session;

/** Thrown when a reader asks for an operator action: answered 403 with a page saying so; nothing is sent. */
public class OperatorRequired extends RuntimeException {
    public OperatorRequired(String action) {
        super(action + " needs an operator token", null, false, false);
    }
}
