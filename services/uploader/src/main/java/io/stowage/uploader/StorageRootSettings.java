package io.stowage.uploader;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The storage root manifest check at start-up, from {@code stowage.uploader.storage-root.*}. */
@ConfigMapping(prefix = "stowage.uploader.storage-root")
public interface StorageRootSettings {
    /**
     * Put {@code manifests/storage-root-v1.json} into the primary store when absent, then read it back and compare
     * it byte for byte (length and SHA-256 of every byte read); a stored manifest that differs stops the start-up.
     */
    @WithDefault("true")
    boolean enabled();
}
