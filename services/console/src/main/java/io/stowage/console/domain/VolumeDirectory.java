package io.stowage.console.domain;

/**
 * A directory under a volume root that a release may name, as the gatekeeper lists it.
 *
 * @param path  absolute directory
 * @param root  the volume root it lies under
 * @param files regular files in it now
 * @param bytes their bytes
 */
public record VolumeDirectory(String path, String root, long files, long bytes) {
    /** @return the bytes in words */
    public String bytesText() {
        return Sizes.human(bytes);
    }
}
