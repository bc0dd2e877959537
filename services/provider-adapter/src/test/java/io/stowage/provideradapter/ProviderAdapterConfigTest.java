package io.stowage.provideradapter;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Without a state directory (production sets none by default) the provider-adapter refuses to start, in one line. */
class ProviderAdapterConfigTest {
    /** @return a configuration whose only answer is {@code stateDir()}; any other call fails the test */
    static ProviderAdapterConfig config(Optional<Path> stateDir) {
        return (ProviderAdapterConfig) Proxy.newProxyInstance(ProviderAdapterConfigTest.class.getClassLoader(),
                new Class<?>[]{ProviderAdapterConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("stateDir")) {
                        return stateDir;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aMissingStateDirIsRefusedWithOneLineNamingTheSetting() {
        assertThatThrownBy(() -> ProviderAdapterConfig.requiredStateDir(config(Optional.empty())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stowage.provider-adapter.state-dir (env STOWAGE_PROVIDER_ADAPTER_STATE_DIR) is not set")
                .hasMessageNotContaining("\n");
        assertThat(ProviderAdapterConfig.requiredStateDir(config(Optional.of(Path.of("/var/lib/stowage")))))
                .isEqualTo(Path.of("/var/lib/stowage"));
    }
}
