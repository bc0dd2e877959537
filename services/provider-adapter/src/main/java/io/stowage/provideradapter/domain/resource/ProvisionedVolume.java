package io.stowage.provideradapter.domain.resource;

/**
 * A volume as the provider reports it.
 *
 * @param id     the provider's id
 * @param name   its name
 * @param sizeGb provisioned GB
 * @param path   absolute directory where its files are seen by this machine (local: the volume directory;
 *               RunPod: the configured mount path of the volume), what a release asks the gate for
 */
public record ProvisionedVolume(String id, String name, int sizeGb, String path) {
}
