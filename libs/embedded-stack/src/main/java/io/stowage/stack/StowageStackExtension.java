package io.stowage.stack;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: {@code @ExtendWith(StowageStackExtension.class)} starts the JVM's shared stack
 * ({@link EmbeddedStack#shared()}) before all tests of the class and resolves test, lifecycle and
 * constructor parameters of type {@link StackEndpoints}.
 */
public final class StowageStackExtension implements BeforeAllCallback, ParameterResolver {
    /** Starts the shared stack, or does nothing when it already runs. */
    @Override
    public void beforeAll(ExtensionContext context) {
        EmbeddedStack.shared();
    }

    /** @return whether the parameter is a {@link StackEndpoints} */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == StackEndpoints.class;
    }

    /** @return the shared stack's endpoints */
    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return EmbeddedStack.shared();
    }
}
