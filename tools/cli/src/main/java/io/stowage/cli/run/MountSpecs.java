package io.stowage.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.cli.CliException;
import io.stowage.events.EventCodec;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the mounts {@code capsule lint --mounts SPEC} checks, and produces them as {@link Mount}s. SPEC is
 * <ul>
 * <li>{@code FILE.json}: a JSON list, each item a Docker short mount {@code "SOURCE:TARGET[:ro]"} or an object
 * {@code {source, target, readOnly}} (also compose's {@code read_only} and {@code docker inspect}'s
 * {@code Source}/{@code Destination}/{@code RW});</li>
 * <li>{@code FILE.yml} or {@code FILE.yaml}: a compose file, every service's {@code volumes} (anchors and
 * {@code <<} merge keys resolved); {@code FILE.yml#SERVICE} for one service.</li>
 * </ul>
 */
public final class MountSpecs {
    private MountSpecs() {
    }

    /**
     * @throws CliException (exit 2) when the file cannot be read or parsed, the service is unknown, or a mount has no target
     */
    public static List<Mount> read(String spec) {
        int hash = spec.lastIndexOf('#');
        Path file = Path.of(hash < 0 ? spec : spec.substring(0, hash));
        String service = hash < 0 ? null : spec.substring(hash + 1);
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        if (!Files.isRegularFile(file)) {
            throw new CliException(CliException.USAGE, "mounts file " + file + " does not exist or is not a file");
        }
        if (name.endsWith(".json")) {
            return fromJson(file);
        }
        if (name.endsWith(".yml") || name.endsWith(".yaml")) {
            return fromCompose(file, service);
        }
        throw new CliException(CliException.USAGE, "--mounts takes a .json list or a compose .yml[#SERVICE], not " + spec);
    }

    private static List<Mount> fromJson(Path file) {
        JsonNode list;
        try {
            list = EventCodec.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new CliException(CliException.USAGE, "cannot parse " + file + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        if (list == null || !list.isArray()) {
            throw new CliException(CliException.USAGE, file + " is not a JSON list of mounts");
        }
        Object plain = EventCodec.mapper().convertValue(list, List.class);
        return mounts(null, (List<?>) plain, file);
    }

    private static List<Mount> fromCompose(Path file, String service) {
        Object root;
        try (Reader reader = Files.newBufferedReader(file)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        } catch (IOException | RuntimeException e) {
            throw new CliException(CliException.USAGE, "cannot parse " + file + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        Object services = root instanceof Map<?, ?> map ? map.get("services") : null;
        if (!(services instanceof Map<?, ?> byName)) {
            throw new CliException(CliException.USAGE, file + " has no compose 'services'");
        }
        if (service != null && !byName.containsKey(service)) {
            throw new CliException(CliException.USAGE, file + " has no service " + service + " (it has " + byName.keySet() + ")");
        }
        List<Mount> mounts = new ArrayList<>();
        for (Map.Entry<?, ?> entry : byName.entrySet()) {
            if (service == null || service.equals(entry.getKey())) {
                Object volumes = entry.getValue() instanceof Map<?, ?> definition ? definition.get("volumes") : null;
                if (volumes instanceof List<?> list) {
                    mounts.addAll(mounts(String.valueOf(entry.getKey()), list, file));
                }
            }
        }
        return mounts;
    }

    private static List<Mount> mounts(String container, List<?> items, Path file) {
        List<Mount> mounts = new ArrayList<>();
        for (Object item : items) {
            Mount mount = item instanceof String text ? shortSyntax(container, text)
                    : item instanceof Map<?, ?> map ? longSyntax(container, map) : null;
            if (mount == null || mount.target() == null || !mount.target().startsWith("/")) {
                throw new CliException(CliException.USAGE, file + ": a mount without an absolute target: " + item);
            }
            mounts.add(mount);
        }
        return mounts;
    }

    /** {@code TARGET}, {@code SOURCE:TARGET} or {@code SOURCE:TARGET:OPTIONS} with {@code ro} among the options. */
    static Mount shortSyntax(String container, String text) {
        String[] parts = text.split(":");
        if (parts.length == 1) {
            return new Mount(container, null, parts[0], false);
        }
        boolean readOnly = parts.length > 2 && List.of(parts[2].split(",")).contains("ro");
        return new Mount(container, parts[0], parts[1], readOnly);
    }

    private static Mount longSyntax(String container, Map<?, ?> map) {
        Object target = first(map, "target", "Destination", "destination");
        Object source = first(map, "source", "Source");
        Object readOnly = first(map, "readOnly", "read_only");
        Object rw = map.get("RW");
        boolean ro = Boolean.TRUE.equals(readOnly) || "true".equals(String.valueOf(readOnly)) || Boolean.FALSE.equals(rw);
        return new Mount(container, source == null ? null : String.valueOf(source), target == null ? null : String.valueOf(target), ro);
    }

    private static Object first(Map<?, ?> map, String... keys) {
        for (String key : keys) {
            if (map.get(key) != null) {
                return map.get(key);
            }
        }
        return null;
    }
}
