package io.stowage.cli.run;

/**
 * One mount of a container, as a compose service or a JSON list declares it.
 *
 * @param container the compose service it belongs to, or null for a plain list
 * @param source    the host path or named volume, or null for an anonymous volume
 * @param target    the absolute path inside the container
 * @param readOnly  true when mounted read-only
 */
public record Mount(String container, String source, String target, boolean readOnly) {

    /** @return the name problems use: {@code target}, prefixed with {@code container: } when known */
    public String name() {
        return container == null ? target : container + ": " + target;
    }
}
